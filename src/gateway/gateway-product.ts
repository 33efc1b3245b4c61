// The gateway as a product the host serves: its handlers over one pool of upstream connections, its
// tasks (upstreams' tasks in the host's table), the instructions and events each caller may see, and
// its 2025 sessions joining the pool. The host does everything else.
import { canonicalUri } from '../mcp/index.js';
import { LEGACY_REVISIONS } from '../protocol/values.js';
import type { Product, ScopedNotifier } from '../mcp-host/index.js';
import { auditDescriber } from './caller-view.js';
import { Downstream } from './downstream.js';
import { gatewayHandlers } from './gateway-handlers.js';
import type { GatewayPool } from './gateway-pool.js';
import { GatewayTasks } from './gateway-tasks.js';
import { subscribeForListen } from './listen-subscriptions.js';
import { upstreamCaller } from './upstream-identity.js';
import { CALL_TOOL, toolSearch } from './tool-search-handlers.js';


/**
 * The gateway product over `pool`. `storeReachable`: /readyz also asks the shared store (when one is
 * configured); the gateway is ready when every `required` upstream is.
 */
export function gatewayProduct(pool: GatewayPool, storeReachable: () => Promise<boolean> = async () => true): Product {
  const { options } = pool;
  const downstream = new Downstream(pool);
  const search = options.toolSearch ? toolSearch(pool, downstream, options.toolSearch) : undefined;
  const tasks = new GatewayTasks(pool, downstream, search);
  pool.attachTasks(tasks);
  const handlers = { ...gatewayHandlers(pool, downstream), ...search?.handlers };
  return {
    info: { name: options.name, title: options.title, version: options.version },
    logAs: { name: 'gateway', fields: { mode: options.mode.kind } },
    capabilities: () => ({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    }),
    legacyVersions: LEGACY_REVISIONS,
    handlers,
    notifications: {
      // The client's roots changed: servers asking it for roots are told to ask again.
      'notifications/roots/list_changed': () => pool.upstreams().manager.notifyRootsChanged(),
    },
    tasks,
    instructions: (view) => pool.instructions(view),
    opened: (session) => downstream.opened(session),
    describe: auditDescriber(pool, options.toolSearch ? CALL_TOOL : undefined),
    // A stream hears the changes of the servers its caller sees (those on another caller's own
    // connection never), and the updates of the resources it may read.
    scopeOf: (view, caller) => {
      const own = caller?.kind === 'token' ? caller.key : undefined;
      return ({ server, uri, caller: concerns }) => {
        if (concerns !== undefined && concerns !== own) return false;
        if (view.unrestricted || server === undefined) return true;
        return uri === undefined ? view.sees(server) : view.allows(server, canonicalUri(uri));
      };
    },
    listening: (uris, view, ended, caller) => subscribeForListen(pool, uris, { view, caller: upstreamCaller(caller) }, ended),
    // The relays find a request's span by its id (req.traceContext): it need not be the current span.
    currentSpan: false,
    watch: (notifier: ScopedNotifier) =>
      pool.watch({
        listChanged(kind, server, caller) {
          if (kind === 'tools') notifier.toolsChanged(server, caller);
          else if (kind === 'prompts') notifier.promptsChanged(server, caller);
          else notifier.resourcesChanged(server, caller);
        },
        resourceUpdated: (uri, server, caller) => notifier.resourceUpdated(uri, server, caller),
      }),
    ops: {
      // An operator looking, a probe or a scrape starts the upstreams, as a first client does.
      upstreams: () => upstreamStatus(pool),
      ready: storeReachable,
      onChange: (listener) => pool.onUpstreamEvent(listener),
    },
    close: () => pool.close(),
  };
}

function upstreamStatus(pool: GatewayPool) {
  try {
    return pool.upstreams().manager.status();
  } catch {
    return []; // closed
  }
}
