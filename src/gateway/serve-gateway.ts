// `switchboard serve` put together: the gateway on stdio (one client of either era, until stdin
// ends) or on Streamable HTTP through the shared host (2025 sessions and 2026-07-28 requests). Either way one pool
// of upstream connections serves every client, and closes with the gateway.
import type { Readable, Writable } from 'node:stream';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { errorMessage, type Logger } from '../util/index.js';
import { AuditedTransport, closingAlso, HTTP_DEFAULTS, InputFlows, listenTap, observedTransport, startHttpHost, StdioFrameTransport, UNRESTRICTED, type HttpHost, type HttpServeOptions, type Ops, type OpsSource } from '../mcp-host/index.js';
import { auditDescriber } from './caller-view.js';
import { GatewayPool, type GatewayDeps, type GatewayOptions } from './gateway-pool.js';
import { GatewaySession } from './gateway-session.js';
import { ModernGatewayClient } from './modern-client.js';
import { subscribeForListen } from './listen-subscriptions.js';
import { gatewayModernLeg, serverNotifier, watchChanges } from './modern-serving.js';

const DRAIN_TIMEOUT_MS = 5_000;
/** SSE `retry:` announced on resumable HTTP streams, unless the caller sets another. */
const SSE_RETRY_MS = 1_000;

export interface GatewayStdioIO {
  stdin: Readable;
  stdout: Writable;
  /** Resolves when the process was asked to stop (SIGINT/SIGTERM): handled like stdin EOF. */
  stop?: Promise<unknown>;
  /** Operations routes on a listener of their own (`--metrics-listen`): they see this gateway's upstreams. */
  ops?: Pick<Ops, 'setSource'>;
}

/**
 * Serve one client on stdin/stdout until stdin ends; then close every upstream connection and flush
 * stdout. The client's first message decides its era (the SDK's `serveStdio`): `initialize` (or any
 * 2025 message) gets a gateway session as before; a 2026-07-28 request gets the per-request handlers
 * (input-required results for what upstreams ask). Resolves with the exit code: 0, or 1 when stdout
 * failed or could not be flushed.
 */
export async function serveGatewayStdio(options: GatewayOptions, deps: GatewayDeps, io: GatewayStdioIO): Promise<number> {
  const transport = new StdioFrameTransport(io.stdin, io.stdout, deps.logger);
  const pool = new GatewayPool(options, deps);
  io.ops?.setSource(opsSource(pool, deps.storeReachable));
  const flows = new InputFlows({ logger: deps.logger });
  const sessions: GatewaySession[] = [];
  const unwatch: (() => void)[] = [];
  // No tracer and no metrics: no span to start per request. The relays find a request's span by its id
  // (traceParentOf), so it need not be the current span.
  const observed = deps.telemetry?.active ? observedTransport(transport, deps.telemetry, { transport: 'pipe', currentSpan: false }) : transport;
  try {
    const connection = serveStdio(
      async (ctx) => {
        if (ctx.era === 'legacy') {
          const session = new GatewaySession(pool, observed);
          sessions.push(session);
          return session.server;
        }
        const { server } = new ModernGatewayClient(pool, flows, await pool.instructions(UNRESTRICTED), observed);
        unwatch.push(watchChanges(pool, serverNotifier(server, deps.logger)));
        return server;
      },
      {
        transport: listenTap(observed, (uris, auth, ended) => subscribeForListen(pool, uris, auth, ended)),
        onerror: (err) => deps.logger.debug('gateway stdio connection error', { error: errorMessage(err) }),
      },
    );
    deps.logger.info('gateway serving on stdio', { mode: options.mode.kind });
    await Promise.race([transport.ended, io.stop?.then(() => transport.close())]);
    await transport.ended;
    await connection.close().catch(() => {});
    await Promise.all(sessions.map((s) => s.close()));
  } finally {
    for (const stop of unwatch) stop();
    flows.close();
    await pool.close();
  }
  deps.logger.info('stdio closed; gateway shutting down', { reason: transport.closeReason });
  const drained = await transport.drain(DRAIN_TIMEOUT_MS);
  const failed = transport.closeReason === 'output_failed' || transport.closeReason === 'line_too_long' || !drained;
  return failed ? 1 : 0;
}

/**
 * Serve Streamable HTTP: 2025 clients in sessions, 2026-07-28 clients per request, on one endpoint and
 * one pool. close() stops accepting, ends every session and waiting request, then closes the upstreams.
 */
export async function serveGatewayHttp(options: GatewayOptions, deps: GatewayDeps, http: HttpServeOptions, logger: Logger = deps.logger): Promise<HttpHost> {
  const pool = new GatewayPool(options, deps);
  http.ops?.setSource(opsSource(pool, deps.storeReachable));
  const modern = gatewayModernLeg(pool, { maxBodyBytes: http.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes, ...(http.requestStateKey ? { requestStateKey: http.requestStateKey } : {}) });
  let host: HttpHost;
  try {
    host = await startHttpHost({
      retryIntervalMs: SSE_RETRY_MS,
      ...http,
      // The relays find a request's span through their server's transport (traceParentOf).
      currentSpan: false,
      logger,
      modern: modern.leg,
      async openSession(transport) {
        const session = new GatewaySession(pool);
        await session.connect(deps.audit ? new AuditedTransport(transport, deps.audit, auditDescriber(pool)) : transport);
        return {
          busy: () => session.activeRequests > 0,
          protocolVersion: () => session.server.getNegotiatedProtocolVersion(),
          close: () => session.close(),
        };
      },
    });
  } catch (err) {
    await modern.close();
    await pool.close();
    throw err;
  }
  return closingAlso(host, async () => {
    await modern.close();
    await pool.close();
  });
}

/**
 * The gateway as operators see it: its upstreams (an operator looking, a probe or a scrape starts
 * them, as a first client does) and ready when every `required` one is and the store answers.
 */
function opsSource(pool: GatewayPool, storeReachable: () => Promise<boolean> = async () => true): OpsSource {
  const status = () => {
    try {
      return pool.upstreams().manager.status();
    } catch {
      return []; // closed
    }
  };
  return {
    upstreams: status,
    ready: async () => status().every((s) => !s.required || s.state === 'ready') && (await storeReachable()),
    onChange: (listener) => pool.onUpstreamEvent(listener),
  };
}
