// The upstream side of a gateway, shared by all its clients: one connection manager (clients
// declaring everything the gateway can relay), the host handlers that pass upstream traffic on, and
// the views that name and route the catalog.
import type { Root } from '@modelcontextprotocol/server';
import type { McpConnectionManager, McpManagerEvent } from '../mcp/index.js';
import type { McpClientHandlers, McpClientOptions, TaskStatusParams } from '../mcp-client/index.js';
import type { Logger } from '../util/index.js';
import { CatalogView, type GatewayMode } from './catalog-view.js';
import type { ListKind } from './list-changed.js';
import { Relay, type RelayClient, type TaskAsker } from './relay.js';
import { ResourceRoutes } from './resource-routes.js';
import { UPSTREAM_CLIENT_OPTIONS } from './upstream-capabilities.js';

export interface GatewayUpstreamSetup {
  clientOptions: Pick<McpClientOptions, 'elicitationCapability' | 'samplingCapability'>;
  handlersFor(server: string, caller?: string): McpClientHandlers;
  onEvent(event: McpManagerEvent): void;
  /**
   * Always true: a gateway holds no memory for a stdio server nobody uses. Its manager stops one that
   * sets no stop_after_idle_sec after config.mcp_stop_after_idle_sec with nothing running
   * (docs/gateway.md, "Servers nobody is using").
   */
  stopIdleStdioServers: true;
}

export interface Upstreams {
  manager: McpConnectionManager;
  catalog: CatalogView;
  routes: ResourceRoutes;
  relay: Relay;
}

/** What the upstream side reports back to the pool that owns it. */
export interface UpstreamSink {
  mode: GatewayMode;
  logger: Logger;
  roots: Root[];
  clients(): Iterable<RelayClient>;
  onEvent(event: McpManagerEvent): void;
  /** `caller`: the change is on that caller's own connection, and concerns that caller alone. */
  listChanged(kind: ListKind, server: string, caller?: string): void;
  /** `caller`: the update came on that caller's own connection, for that caller's subscribers alone. */
  resourceUpdated(uri: string, server: string, caller?: string): void;
  /** `server`'s shared connection got a new upstream session (the old one expired): it holds no subscription. */
  sessionRecovered(server: string): void;
  taskStatus(server: string, params: TaskStatusParams, caller?: string): void;
  taskAsker(server: string, taskId: string, caller?: string): { asker: TaskAsker; client: RelayClient | undefined } | undefined;
}

export function openUpstreams(sink: UpstreamSink, createManager: (setup: GatewayUpstreamSetup) => McpConnectionManager): Upstreams {
  const relay = new Relay(sink.logger, { attributeLogs: sink.mode.kind === 'aggregate', roots: sink.roots, clients: () => sink.clients(), taskAsker: (server, taskId, caller) => sink.taskAsker(server, taskId, caller) });
  const manager = createManager({
    clientOptions: UPSTREAM_CLIENT_OPTIONS,
    stopIdleStdioServers: true,
    onEvent: (event) => sink.onEvent(event),
    // `caller`: that caller's own connection (a server that acts as each caller); its traffic, list
    // changes included, stays that caller's. (An operator connection's tool list changes reach every
    // client through the manager's catalog events; a caller's, once its list is read again. A caller's
    // connection renews its own subscriptions in a new upstream session; the shared one's, the pool.)
    handlersFor: (server, caller) => ({
      ...relay.handlersFor(server, caller),
      onResourceUpdated: (uri) => sink.resourceUpdated(uri, server, caller),
      onTaskStatus: (params) => sink.taskStatus(server, params, caller),
      onPromptsListChanged: () => sink.listChanged('prompts', server, caller),
      onResourcesListChanged: () => sink.listChanged('resources', server, caller),
      ...(caller === undefined ? { onSessionRecovered: () => sink.sessionRecovered(server) } : { onToolsListChanged: () => sink.listChanged('tools', server, caller) }),
    }),
  });
  return { manager, relay, catalog: new CatalogView(manager, sink.mode), routes: new ResourceRoutes(manager, sink.mode, sink.logger) };
}
