// A 2026-07-28 `subscriptions/listen` stream that asks for resource updates: the gateway subscribes
// the upstreams serving those URIs while the stream is open (once per URI and upstream connection
// across every client of the pool, as for 2025 subscribers; on the caller's own connection where a
// server acts as each caller), so their updates reach the stream. URIs outside the caller's view,
// or that no server serves, are skipped silently: the stream simply never hears of them.
import type { UpstreamCaller } from '../mcp-client/index.js';
import type { CallerView } from '../mcp-host/index.js';
import { errorMessage } from '../util/index.js';
import type { GatewayPool, PoolClient } from './gateway-pool.js';

const UNSUBSCRIBE_TIMEOUT_MS = 10_000;

/** One listen stream as the pool's subscription table sees it; what it hears comes through the pool's watchers. */
function listener(): PoolClient {
  return { clientCapabilities: undefined, loggingLevel: undefined, callerKey: undefined, passes: () => false, sees: () => false, notify: () => {}, listChanged: () => {} };
}

/** Subscribes `uris` upstream for a caller with `view` until `ended` aborts. */
export function subscribeForListen(pool: GatewayPool, uris: readonly string[], { view, caller }: { view: CallerView; caller: UpstreamCaller | undefined }, ended: AbortSignal): void {
  if (uris.length === 0 || ended.aborted) return;
  const self = listener();
  const subscribed = Promise.allSettled(
    [...new Set(uris)].map(async (uri) => {
      try {
        const up = pool.upstreams();
        const server = await up.routes.route(uri, ended, caller);
        if (server === undefined) return undefined;
        // Outside the caller's view the manager refuses it (unknown_resource): skipped like an unknown URI.
        await pool.subscribe(self, uri, server, ended, view, caller);
        return uri;
      } catch (err) {
        if (!ended.aborted) pool.logger.debug('gateway: subscribing a listen stream upstream failed', { uri, error: errorMessage(err) });
        return undefined;
      }
    }),
  );
  ended.addEventListener(
    'abort',
    () => {
      // Only once every subscribe settled, so none lands after its stream is gone.
      void subscribed.then((outcomes) =>
        Promise.all(
          outcomes.map(async (o) => {
            if (o.status !== 'fulfilled' || o.value === undefined) return;
            await pool.unsubscribe(self, o.value, AbortSignal.timeout(UNSUBSCRIBE_TIMEOUT_MS)).catch((err: unknown) => {
              pool.logger.debug('gateway: unsubscribing a closed listen stream upstream failed', { uri: o.value, error: errorMessage(err) });
            });
          }),
        ),
      );
    },
    { once: true },
  );
}
