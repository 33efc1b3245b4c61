// The gateway's 2026-07-28 serving: the per-request server factory the HTTP host's modern leg calls
// (handlers on the shared pool, nothing started per request), and list changes of the pool published
// to open `subscriptions/listen` streams (whose resource subscriptions hold the upstream's). A retry or
// a task request held by another replica is forwarded there.
import type { McpRequestContext, McpServerFactory, Server } from '@modelcontextprotocol/server';
import { errorMessage, type Logger } from '../util/index.js';
import { auditedServer, callerOf, createModernLeg, InputFlows, retryHolders, TaskIds, UNRESTRICTED, type ModernLeg, type RequestStateKey, type ScopedNotifier } from '../mcp-host/index.js';
import { canonicalUri } from '../mcp/index.js';
import { auditDescriber } from './caller-view.js';
import type { GatewayPool } from './gateway-pool.js';
import { subscribeForListen } from './listen-subscriptions.js';
import { ModernGatewayClient } from './modern-client.js';

export interface GatewayModern {
  leg: ModernLeg;
  close(): Promise<void>;
}

/** Only discovery carries instructions: other requests need not wait for them. */
function isDiscovery(ctx: McpRequestContext | undefined): boolean {
  return ctx?.requestInfo?.headers.get('mcp-method') === 'server/discover';
}

export function gatewayServerFactory(pool: GatewayPool, flows: InputFlows): McpServerFactory {
  return async (ctx): Promise<Server> => {
    const instructions = isDiscovery(ctx) ? await pool.instructions(pool.options.access?.viewFor(callerOf(ctx?.authInfo)) ?? UNRESTRICTED) : undefined;
    const server = new ModernGatewayClient(pool, flows, instructions).server;
    return pool.audit ? auditedServer(server, pool.audit, auditDescriber(pool)) : server;
  };
}

export function gatewayModernLeg(pool: GatewayPool, options: { maxBodyBytes: number; requestStateKey?: RequestStateKey }): GatewayModern {
  const flows = new InputFlows({ logger: pool.logger, ...(options.requestStateKey ? { key: options.requestStateKey } : {}) });
  const taskIds = new TaskIds(options.requestStateKey);
  pool.modernTasks.ids = taskIds;
  const leg = createModernLeg(gatewayServerFactory(pool, flows), {
    logger: pool.logger,
    maxBodyBytes: options.maxBodyBytes,
    retries: retryHolders(flows, taskIds),
    onListen: (uris, auth, ended) => subscribeForListen(pool, uris, auth, ended),
    scopeOf: (auth) => {
      const view = pool.options.access?.viewFor(callerOf(auth)) ?? UNRESTRICTED;
      if (view.unrestricted) return () => true;
      return ({ server, uri }) => server === undefined || (uri === undefined ? view.sees(server) : view.allows(server, canonicalUri(uri)));
    },
  });
  const unwatch = watchChanges(pool, leg.notify);
  return {
    leg,
    async close() {
      unwatch();
      flows.close();
    },
  };
}

/** The pool's list changes and resource updates, told to `notify` (listen streams filter what they take) until the returned function is called. */
export function watchChanges(pool: GatewayPool, notify: ScopedNotifier): () => void {
  return pool.watch({
    listChanged(kind, server) {
      if (kind === 'tools') notify.toolsChanged(server);
      else if (kind === 'prompts') notify.promptsChanged(server);
      else notify.resourcesChanged(server);
    },
    resourceUpdated: (uri, server) => notify.resourceUpdated(uri, server),
  });
}

/** A pinned server's own notifications as a notifier (over stdio the SDK routes them onto the listen streams of its one client). */
export function serverNotifier(server: Server, logger: Logger): ScopedNotifier {
  const sent = (p: Promise<void>) => void p.catch((err: unknown) => logger.debug('gateway: a change notification was not sent', { error: errorMessage(err) }));
  return {
    toolsChanged: () => sent(server.sendToolListChanged()),
    promptsChanged: () => sent(server.sendPromptListChanged()),
    resourcesChanged: () => sent(server.sendResourceListChanged()),
    resourceUpdated: (uri) => sent(server.sendResourceUpdated({ uri })),
  };
}
