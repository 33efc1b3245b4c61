// The shapes around a gateway's pool (gateway-pool.ts): its options and dependencies, the clients it
// serves, the watchers that hear what concerns every client, and where upstream task events go.
import type { LoggingLevel, Root } from '@modelcontextprotocol/server';
import type { McpConnectionManager } from '../mcp/index.js';
import type { TaskStatusParams } from '../mcp-client/index.js';
import type { Logger } from '../util/index.js';
import type { GatewayMode } from './catalog-view.js';
import type { ListKind } from './list-changed.js';
import type { RelayClient, TaskAsker } from './relay.js';
import type { GatewayToolSearch } from './tool-search-handlers.js';
import type { GatewayUpstreamSetup } from './upstreams.js';

export interface GatewayOptions {
  name: string;
  title: string;
  version: string;
  mode: GatewayMode;
  instructions?: string;
  /** `--tool-search`: tools/list offers search_tools and call_tool (and the always-loaded servers' tools). */
  toolSearch?: GatewayToolSearch;
}

export interface GatewayDeps {
  logger: Logger;
  /** The connection manager over the configured servers, with the gateway's handlers and client options. */
  createManager(setup: GatewayUpstreamSetup): McpConnectionManager;
  /** Answered to an upstream's roots/list outside a request or for a client without roots. Default: the working directory. */
  roots?: Root[];
  /** /readyz: the shared store answers (when one is configured). */
  storeReachable?: () => Promise<boolean>;
}

/** A client of the pool: what the relay needs, plus its log level and list changes (of the servers it sees). */
export interface PoolClient extends RelayClient {
  readonly loggingLevel: LoggingLevel | undefined;
  /** The key of its caller (an OAuth caller over HTTP); undefined for the operator. */
  readonly callerKey: string | undefined;
  listChanged(...kinds: ListKind[]): void;
}

/** What upstreams say about their tasks, for the tasks the gateway holds (gateway-tasks.ts). */
export interface UpstreamTaskEvents {
  status(server: string, params: TaskStatusParams, caller?: string): void;
  asker(server: string, upstreamId: string, caller?: string): { asker: TaskAsker; client: RelayClient | undefined } | undefined;
}

/** Hears what concerns every client without being one (the 2026-07-28 `subscriptions/listen` streams, which filter by their callers' views). */
export interface PoolWatcher {
  /** `caller`: a change on that caller's own connection, for its streams alone. */
  listChanged(kind: ListKind, server: string, caller?: string): void;
  /** `caller`: an update on that caller's own connection, for its streams alone. */
  resourceUpdated(uri: string, server: string, caller?: string): void;
}
