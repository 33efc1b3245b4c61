// The connection manager's public shapes: options, dependencies, events, call options, summaries.
import type { McpServerConfig } from '../config/index.js';
import type { McpClientHandlers } from '../mcp-client/index.js';
import type { EventMsgOf } from '../protocol/index.js';
import type { Logger } from '../util/index.js';
import type { CallElicitationHandler } from './elicitation-router.js';
import type { ClientFactory } from './managed-server.js';
import type { RestartPolicyOptions } from './restart-policy.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { TrustedServers } from './tool-metadata.js';

export type McpManagerEvent = EventMsgOf<'mcp_startup_update'> | EventMsgOf<'mcp_startup_complete'> | EventMsgOf<'mcp_tools_changed'>;

export interface McpConnectionManagerOptions {
  /** Enabled and disabled servers in config order; disabled ones are invisible. */
  servers: Record<string, McpServerConfig>;
  maxToolNameBytes?: number;
  /** Servers whose connector metadata survives; granted in code only. */
  trusted?: TrustedServers;
  restart?: RestartPolicyOptions;
}

export interface McpConnectionManagerDeps {
  createClient: ClientFactory;
  logger: Logger;
  /** Startup snapshots; without a store nothing is cached. */
  snapshots?: SnapshotStore;
  onEvent?: (event: McpManagerEvent) => void;
  /** Host handlers for one server (logging, sampling, resource updates, elicitation outside calls). */
  handlersFor?: (server: string) => McpClientHandlers;
}

export type WaitMode = 'none' | 'unsnapshotted' | 'all';

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Answers elicitations the server raises while this call runs. */
  onElicitation?: CallElicitationHandler;
  meta?: Record<string, unknown>;
}


export interface StartupSummary {
  ready: string[];
  failed: { server: string; error: string }[];
  cancelled: string[];
}
