// The connection manager's public shapes: options, dependencies, events, call options, summaries.
import type { McpServerConfig } from '../config/index.js';
import type { InputHandlers, McpClientHandlers, RequestOptions, UpstreamCaller, UpstreamIdentities } from '../mcp-client/index.js';
import type { CallerConnectionsOptions } from './caller-connections.js';
import type { EventMsgOf } from '../protocol/index.js';
import type { Logger } from '../util/index.js';
import type { CallElicitationHandler } from './elicitation-router.js';
import type { ClientFactory } from './client-factory.js';
import type { RestartPolicyOptions } from './restart-policy.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { TrustedServers } from './tool-metadata.js';
import type { UpstreamAccess } from './upstream-access.js';

/**
 * What the manager reports as servers start and catalogs change: `mcp_startup_update` (one server's
 * state), `mcp_startup_complete` (the first startup settled) and `mcp_tools_changed`.
 */
export type McpManagerEvent = EventMsgOf<'mcp_startup_update'> | EventMsgOf<'mcp_startup_complete'> | EventMsgOf<'mcp_tools_changed'>;

/** The servers a manager serves, and its naming and restart rules. */
export interface McpConnectionManagerOptions {
  /** Enabled and disabled servers in config order; disabled ones are invisible. */
  servers: Record<string, McpServerConfig>;
  maxToolNameBytes?: number;
  /** Servers whose connector metadata survives; granted in code only. */
  trusted?: TrustedServers;
  restart?: RestartPolicyOptions;
  /** The per-caller connections of identity = "caller" servers: how many at once, how long idle. */
  callers?: CallerConnectionsOptions;
  /**
   * A stdio server that sets no stop_after_idle_sec is stopped after this many seconds with nothing
   * running (a gateway's mcp_stop_after_idle_sec: createConnectionManager's stopIdleStdioServers). Default: never.
   */
  stdioIdleStopSec?: number;
}

/** What a manager uses: how to make clients, where to log, snapshots, and whom to tell about events. */
export interface McpConnectionManagerDeps {
  createClient: ClientFactory;
  logger: Logger;
  /** Startup snapshots; without a store nothing is cached. */
  snapshots?: SnapshotStore;
  onEvent?: (event: McpManagerEvent) => void;
  /**
   * Host handlers for one server (logging, sampling, resource updates, elicitation outside calls);
   * `caller`: for that caller's own connection (identity = "caller").
   */
  handlersFor?: (server: string, caller?: string) => McpClientHandlers;
  /**
   * Serving callers: the credential each caller presents to an identity = "caller" server. Without
   * it (the CLI, where the local user is the operator) every server acts as the operator.
   */
  identities?: UpstreamIdentities;
}

/** How long `listAllTools` waits for starting servers (see there). */
export type WaitMode = 'none' | 'unsnapshotted' | 'all';

/** What every manager operation on one upstream takes. */
export interface OperationOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The caller's rights (a served endpoint's [server_auth] rules): what it may not reach is answered as unknown. */
  access?: UpstreamAccess;
  /** The trace context the request continues (the gateway's: the request it relays); else the current span's. */
  traceParent?: RequestOptions['traceParent'];
  /**
   * Whom the request is made for: an identity = "caller" server is reached on this caller's own
   * connection with its own credential (absent: the operator, whom such a server refuses).
   */
  caller?: UpstreamCaller;
}

/** Per-call options of `McpConnectionManager.callTool`. */
export interface CallOptions extends OperationOptions {
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Answers elicitations the server raises while this call runs. */
  onElicitation?: CallElicitationHandler;
  /** Answers this call's input requests (a 2026-07-28 server's input-required results) instead of the handlers. */
  inputs?: InputHandlers;
  meta?: Record<string, unknown>;
}

/** Options of a resources/read or prompts/get through the manager. */
export interface ReadOptions extends OperationOptions {
  /** As {@link CallOptions.inputs}. */
  inputs?: InputHandlers;
}

/** How the first startup of the eager servers ended. */
export interface StartupSummary {
  ready: string[];
  failed: { server: string; error: string }[];
  cancelled: string[];
}
