// The upstream side of one gateway session: its connection manager (clients advertising what the
// gateway's client supports), the host handlers that pass upstream traffic on, and the views that
// name and route the catalog.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { McpConnectionManager, McpManagerEvent } from '../mcp/index.js';
import type { McpClientHandlers, McpClientOptions } from '../mcp-client/index.js';
import { errorMessage } from '../util/index.js';
import { CatalogView } from './catalog-view.js';
import type { GatewaySession } from './gateway-session.js';
import { Relay } from './relay.js';
import { ResourceRoutes } from './resource-routes.js';
import { upstreamCapabilities } from './upstream-capabilities.js';

export interface GatewayUpstreamSetup {
  clientOptions: Pick<McpClientOptions, 'elicitationCapability' | 'samplingCapability'>;
  handlersFor(server: string): McpClientHandlers;
  onEvent(event: McpManagerEvent): void;
}

export interface Upstreams {
  manager: McpConnectionManager;
  catalog: CatalogView;
  routes: ResourceRoutes;
  relay: Relay;
  /** A server (re)connected: give it the client's log level and renew subscriptions it serves. */
  reconnected(server: string): Promise<void>;
}

export function openUpstreams(
  session: GatewaySession,
  downstream: ClientCapabilities | undefined,
  createManager: (setup: GatewayUpstreamSetup) => McpConnectionManager,
): Upstreams {
  const caps = upstreamCapabilities(downstream);
  const relay = new Relay(session.server, session.logger, { attributeLogs: session.mode.kind === 'aggregate', sampling: caps.sampling, roots: caps.roots });
  if (session.loggingLevel !== undefined) relay.setLevel(session.loggingLevel);
  const manager = createManager({
    clientOptions: caps.clientOptions,
    onEvent: (event) => session.onManagerEvent(event),
    handlersFor: (server) => ({
      ...relay.handlersFor(server),
      onResourceUpdated: (uri) => {
        session.server.notification({ method: 'notifications/resources/updated', params: { uri } }).catch(() => {});
      },
      onPromptsListChanged: () => session.listChanged('prompts'),
      onResourcesListChanged: () => session.listChanged('resources'),
    }),
  });
  const log = session.logger;
  return {
    manager,
    relay,
    catalog: new CatalogView(manager, session.mode),
    routes: new ResourceRoutes(manager, session.mode, log),
    async reconnected(server) {
      try {
        const client = await manager.clientFor(server);
        const level = session.loggingLevel;
        if (level !== undefined && client.capabilities?.logging) await client.setLoggingLevel(level);
        const uris = [...session.subscriptions].filter(([, s]) => s === server).map(([uri]) => uri);
        if (uris.length > 0 && client.capabilities?.resources?.subscribe) await Promise.all(uris.map((uri) => client.subscribe(uri)));
      } catch (err) {
        log.warn(`gateway: could not restore the log level or subscriptions on MCP server '${server}': ${errorMessage(err)}`);
      }
    },
  };
}
