// `switchboard serve` put together: the gateway on stdio (one client, until stdin ends) or on
// Streamable HTTP through the shared host (one gateway session per HTTP session). Either way one pool
// of upstream connections serves every client, and closes with the gateway.
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../util/index.js';
import { closingAlso, HTTP_DEFAULTS, startHttpHost, StdioFrameTransport, type HttpHost, type HttpServeOptions } from '../mcp-host/index.js';
import { GatewayPool, type GatewayDeps, type GatewayOptions } from './gateway-pool.js';
import { GatewaySession } from './gateway-session.js';
import { gatewayModernLeg } from './modern-serving.js';

const DRAIN_TIMEOUT_MS = 5_000;
/** SSE `retry:` announced on resumable HTTP streams, unless the caller sets another. */
const SSE_RETRY_MS = 1_000;

export interface GatewayStdioIO {
  stdin: Readable;
  stdout: Writable;
  /** Resolves when the process was asked to stop (SIGINT/SIGTERM): handled like stdin EOF. */
  stop?: Promise<unknown>;
}

/**
 * Serve one client on stdin/stdout until stdin ends; then close every upstream connection and flush
 * stdout. Resolves with the exit code: 0, or 1 when stdout failed or could not be flushed.
 */
export async function serveGatewayStdio(options: GatewayOptions, deps: GatewayDeps, io: GatewayStdioIO): Promise<number> {
  const transport = new StdioFrameTransport(io.stdin, io.stdout, deps.logger);
  const pool = new GatewayPool(options, deps);
  const session = new GatewaySession(pool);
  const closed = new Promise<void>((resolve) => session.onClose(resolve));
  try {
    await session.connect(transport);
    deps.logger.info('gateway serving on stdio', { mode: options.mode.kind });
    await Promise.race([closed, io.stop?.then(() => transport.close())]);
    await closed;
  } finally {
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
  const modern = gatewayModernLeg(pool, { maxBodyBytes: http.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes });
  let host: HttpHost;
  try {
    host = await startHttpHost({
      retryIntervalMs: SSE_RETRY_MS,
      ...http,
      logger,
      modern: modern.leg,
      async openSession(transport) {
        const session = new GatewaySession(pool);
        await session.connect(transport);
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
