// Composition of the MCP side for a command run: OAuth runtime, launchers, snapshots, the manager.
// Nothing here loads the MCP SDK; the client factory does that on the first connection.
import type { Root } from '@modelcontextprotocol/client';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config/index.js';
import type { McpClientOptions, OAuthRuntime } from '../mcp-client/index.js';
import { createDefaultClientFactory, McpConnectionManager, SnapshotStore, type McpConnectionManagerDeps } from '../mcp/index.js';
import type { CliContext } from './context.js';

export interface ComposeMcpOptions {
  onEvent?: McpConnectionManagerDeps['onEvent'];
  handlersFor?: McpConnectionManagerDeps['handlersFor'];
  /** Workspace roots answered to roots/list (default: the current directory). */
  roots?: Root[];
  /** Options for every client (e.g. the capabilities a gateway advertises upstream). */
  clientOptions?: McpClientOptions;
}

export function createMcpManager(ctx: Pick<CliContext, 'env' | 'logger' | 'cwd'>, config: Config, options: ComposeMcpOptions = {}): McpConnectionManager {
  let oauth: Promise<OAuthRuntime> | undefined;
  const createClient = createDefaultClientFactory({
    logger: ctx.logger,
    environments: config.environments,
    env: ctx.env,
    authProviderFor: async (server) => {
      oauth ??= import('../mcp-client/index.js').then((m) => m.createOAuthRuntime(config, { logger: ctx.logger, env: ctx.env }));
      return (await oauth).authProviderFor(server);
    },
    roots: options.roots ?? [{ uri: pathToFileURL(ctx.cwd).href, name: 'workspace' }],
    clientOptions: options.clientOptions,
  });
  return new McpConnectionManager(
    {
      servers: config.mcp_servers,
      maxToolNameBytes: config.mcp_tool_name_max_length,
      restart: { initialDelayMs: config.mcp_restart_initial_delay_ms, maxDelayMs: config.mcp_restart_max_delay_ms },
    },
    {
      createClient,
      logger: ctx.logger,
      snapshots: SnapshotStore.inHome(config.home, ctx.logger),
      onEvent: options.onEvent,
      handlersFor: options.handlersFor,
    },
  );
}
