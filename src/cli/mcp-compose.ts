// The MCP side of a command run: the connection manager over the config's servers, with the command's
// logger, environment and working directory (the workspace root offered to servers).
import type { Config } from '../config/index.js';
import { createConnectionManager, type ConnectionManagerOptions, type McpConnectionManager } from '../mcp/index.js';
import type { CliContext } from './context.js';

export type ComposeMcpOptions = Pick<ConnectionManagerOptions, 'onEvent' | 'handlersFor' | 'roots' | 'clientOptions' | 'oauthCredentials' | 'telemetry' | 'identities' | 'stopIdleStdioServers'>;

export function createMcpManager(ctx: Pick<CliContext, 'env' | 'logger' | 'cwd' | 'telemetry'>, config: Config, options: ComposeMcpOptions = {}): McpConnectionManager {
  const telemetry = options.telemetry ?? ctx.telemetry;
  return createConnectionManager(config, { ...options, logger: ctx.logger, env: ctx.env, cwd: ctx.cwd, ...(telemetry ? { telemetry } : {}) });
}
