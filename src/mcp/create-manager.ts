// createConnectionManager: a McpConnectionManager wired from a validated config (launchers per
// `environment`, OAuth tokens from the configured store, startup snapshots). The CLI and the library
// entry point both build their managers here. Nothing here loads the MCP SDK; the client factory does
// that on the first connection.
import type { Root } from '@modelcontextprotocol/client';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config/index.js';
import type { McpClientOptions } from '../mcp-client/index.js';
import type { CredentialStore, OAuthRuntime } from '../mcp-client/oauth/index.js';
import { createDefaultClientFactory } from './client-factory.js';
import { McpConnectionManager, type McpConnectionManagerDeps, type McpConnectionManagerOptions } from './connection-manager.js';
import { SnapshotStore } from './snapshot-store.js';
import { nullLogger, type Logger } from '../util/index.js';
import type { Telemetry } from '../util/telemetry/index.js';

/** How {@link createConnectionManager} wires the manager; every field has a default. */
export interface ConnectionManagerOptions {
  /** Receives the manager's and every connection's log lines. Default: discarded. */
  logger?: Logger;
  /**
   * The environment `bearer_token_env_var`, `env_http_headers`, `env_vars` and OAuth client secrets
   * are read from, and the base of a stdio server's environment. Default: `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** The workspace roots answered to a server's `roots/list`. Default: `cwd`. */
  roots?: Root[];
  /** The working directory offered as the workspace root when `roots` is not given. Default: `process.cwd()`. */
  cwd?: string;
  /** Startup progress and catalog changes (`mcp_startup_update`, `mcp_startup_complete`, `mcp_tools_changed`). */
  onEvent?: McpConnectionManagerDeps['onEvent'];
  /** Handlers for what a server pushes outside a call (log messages, sampling, resource updates, elicitation). */
  handlersFor?: McpConnectionManagerDeps['handlersFor'];
  /** Options for every client (client info, timeouts, advertised capabilities). */
  clientOptions?: McpClientOptions;
  /**
   * Keep each server's tool list under `<config.home>/cache/mcp-tools` so the next start lists tools before the
   * servers are up (as the CLI does). Default: true.
   */
  snapshots?: boolean;
  /** Replicas: upstream OAuth credentials in the shared store (sealed) instead of this machine's keyring or file. */
  oauthCredentials?: CredentialStore | null;
  /** Spans for every request to a server (OpenTelemetry, metrics), and trace context passed on. Default: none. */
  telemetry?: Telemetry;
  /**
   * Serving callers: the credential each caller presents to an `identity = "caller"` server
   * (`createCallerIdentities` in `switchboard/oauth`). Default: none, and every server acts as the
   * operator (the local user of a CLI run).
   */
  identities?: McpConnectionManagerDeps['identities'];
  /** How many caller connections are held at once, and how long an idle one lives. */
  callers?: McpConnectionManagerOptions['callers'];
  /**
   * Stop a stdio server that sets no stop_after_idle_sec after `config.mcp_stop_after_idle_sec` with
   * nothing running, as a gateway does. Default: such servers run until the manager closes (an
   * agent's session, a CLI run).
   */
  stopIdleStdioServers?: boolean;
}

/**
 * A connection manager over `config.mcp_servers`, not yet started. `start()` launches the servers
 * and returns at once; `listAllTools()` starts them too and waits for those without a startup
 * snapshot. `callTool(name)` knows a catalog name once its server has listed its tools (or from the
 * last run's snapshot), so list first (or `await waitForStartup()`). `close()` ends every server.
 *
 * @example
 * ```ts
 * const { config } = await loadConfig({ home: resolveHome() });
 * const manager = createConnectionManager(config);
 * const catalog = await manager.listAllTools();
 * const result = await manager.callTool('mcp__docs__search', { query: 'zod' });
 * await manager.close();
 * ```
 */
export function createConnectionManager(config: Config, options: ConnectionManagerOptions = {}): McpConnectionManager {
  const logger = options.logger ?? nullLogger;
  const env = options.env ?? process.env;
  let oauth: Promise<OAuthRuntime> | undefined;
  const createClient = createDefaultClientFactory({
    logger,
    environments: config.environments,
    env,
    // The OAuth layer (and the token store behind it) loads only when an HTTP server needs it.
    authProviderFor: async (server) => {
      oauth ??= import('../mcp-client/oauth/index.js').then((m) => m.createOAuthRuntime(config, { logger, env, credentials: options.oauthCredentials ?? null }));
      return (await oauth).authProviderFor(server);
    },
    roots: options.roots ?? [{ uri: pathToFileURL(options.cwd ?? process.cwd()).href, name: 'workspace' }],
    clientOptions: options.clientOptions,
    // Node servers start faster from the second run on (compiled code kept between runs).
    ...(config.mcp_node_compile_cache ? { nodeCompileCacheDir: path.join(config.home, 'cache', 'node-compile') } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
  });
  return new McpConnectionManager(
    {
      servers: config.mcp_servers,
      maxToolNameBytes: config.mcp_tool_name_max_length,
      restart: { initialDelayMs: config.mcp_restart_initial_delay_ms, maxDelayMs: config.mcp_restart_max_delay_ms },
      ...(options.callers ? { callers: options.callers } : {}),
      ...(options.stopIdleStdioServers ? { stdioIdleStopSec: config.mcp_stop_after_idle_sec } : {}),
    },
    {
      createClient,
      logger,
      snapshots: options.snapshots === false ? undefined : SnapshotStore.inHome(config.home, logger),
      onEvent: options.onEvent,
      handlersFor: options.handlersFor,
      ...(options.identities ? { identities: options.identities } : {}),
    },
  );
}
