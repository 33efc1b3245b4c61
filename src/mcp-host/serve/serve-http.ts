// Streamable HTTP serving: 2025 clients in sessions, 2026-07-28 clients per request, on one endpoint.
// Its own module, imported by serveHttp's first call: it brings Node's HTTP server and the SDK's Node
// adapter (hono, and through its import of node:http, Node's fetch), which a stdio server never runs.
import type { AuthInfo } from '@modelcontextprotocol/server';
import { UNRESTRICTED } from '../access/access-rules.js';
import { AuditedTransport, auditedServer } from '../access/audit-trail.js';
import { callerOf } from '../access/caller.js';
import { retryHolders } from '../flows/task-ids.js';
import { closingAlso, HTTP_DEFAULTS, startHttpHost, type HttpHost, type HttpServeOptions } from '../http/http-host.js';
import { createModernLeg } from '../http/modern-leg.js';
import { errorResponseFor } from '../rpc/request-guard.js';
import { legacyServer, modernServer } from './build-server.js';
import { HostSession } from './host-session.js';
import type { Product } from './product.js';
import { guarded, listened, served, type ServeOptions } from './served.js';

/** SSE `retry:` announced on resumable HTTP streams, unless the caller sets another. */
const SSE_RETRY_MS = 1_000;

/** What `serveHttp` (serve.ts, the public face) does once this module is loaded. */
export async function serveHttp(product: Product, http: HttpServeOptions, options: ServeOptions): Promise<HttpHost> {
  const { logger } = options;
  if (product.ops) http.ops?.setSource(product.ops);
  const s = served(product, options, http.requestStateKey);
  const leg = createModernLeg(
    async (ctx) => {
      // The request's method, as its Mcp-Method header names it (the SDK has checked it against the body).
      const method = ctx.requestInfo?.headers.get('mcp-method') ?? undefined;
      const view = s.access?.viewFor(callerOf(ctx.authInfo)) ?? UNRESTRICTED;
      // Only discovery carries instructions: other 2026-07-28 requests need not wait for them.
      const instructions = method === 'server/discover' ? await product.instructions?.(view) : undefined;
      const server = modernServer(s, instructions, () => undefined, method);
      return options.audit ? auditedServer(server, options.audit, product.describe) : server;
    },
    {
      logger,
      maxBodyBytes: http.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
      retries: retryHolders(s.flows, s.ids),
      ...(options.audit ? { audit: options.audit } : {}),
      ...(product.listening ? { onListen: (uris: string[], auth: AuthInfo | undefined, ended: AbortSignal) => listened(product, s, uris, auth, ended) } : {}),
      ...(product.scopeOf
        ? {
            scopeOf: (auth: AuthInfo | undefined) => {
              const caller = callerOf(auth);
              return product.scopeOf!(s.access?.viewFor(caller) ?? UNRESTRICTED, caller);
            },
          }
        : {}),
    },
  );
  const unwatch = product.watch?.(leg.notify);
  let host: HttpHost;
  try {
    host = await startHttpHost({
      retryIntervalMs: SSE_RETRY_MS,
      ...http,
      currentSpan: product.currentSpan !== false,
      ...(product.describe ? { describe: product.describe } : {}),
      logger,
      modern: leg,
      async openSession(sessionTransport) {
        const session = new HostSession(logger, s.access);
        session.onClose(() => s.tasks.sessionClosed(session));
        const audited = options.audit ? new AuditedTransport(sessionTransport, options.audit, product.describe) : sessionTransport;
        const { transport, guard } = guarded(s, audited, false);
        const server = legacyServer(s, session, () => sessionTransport, product.answersCancelled === true);
        await server.connect(transport);
        return {
          // Only a reused id is refused before the transport: it would otherwise re-route the running call's stream.
          ...(guard ? { refusal: (message) => errorResponseFor(guard, message) } : {}),
          busy: () => session.inFlight > 0 || s.tasks.running(`session:${session.id}`) > 0,
          protocolVersion: () => session.protocolVersion,
          close: () => session.close(),
        };
      },
    });
  } catch (err) {
    unwatch?.();
    s.flows.close();
    await leg.close();
    await product.close?.();
    throw err;
  }
  return closingAlso(host, async () => {
    unwatch?.();
    s.flows.close();
    s.tasks.close();
    await product.close?.();
  });
}
