// `switchboard serve` put together: the gateway product on the host's serving entry, on stdio (one
// client of either era, until stdin ends) or on Streamable HTTP (2025 sessions and 2026-07-28
// requests). Either way one pool of upstream connections serves every client, and closes with it.
import type { Readable, Writable } from 'node:stream';
import { serveHttp, serveStdio, type HttpHost, type HttpServeOptions, type Ops, type OpsSource } from '../mcp-host/index.js';
import type { Logger } from '../util/index.js';
import { GatewayPool, type GatewayDeps, type GatewayOptions } from './gateway-pool.js';
import { gatewayProduct } from './gateway-product.js';

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
 * stdout. Resolves with the exit code: 0, or 1 when stdout failed or could not be flushed.
 */
export async function serveGatewayStdio(options: GatewayOptions, deps: GatewayDeps, io: GatewayStdioIO): Promise<number> {
  const pool = new GatewayPool(options, deps);
  io.ops?.setSource(opsSource(pool, deps.storeReachable));
  const served = await serveStdio(gatewayProduct(pool), io, { logger: deps.logger, ...(options.access ? { access: options.access } : {}), ...(deps.telemetry ? { telemetry: deps.telemetry } : {}) });
  return served.exitCode;
}

/**
 * Serve Streamable HTTP: 2025 clients in sessions, 2026-07-28 clients per request, on one endpoint and
 * one pool. close() stops accepting, ends every session and waiting request, then closes the upstreams.
 */
export async function serveGatewayHttp(options: GatewayOptions, deps: GatewayDeps, http: HttpServeOptions, logger: Logger = deps.logger): Promise<HttpHost> {
  const pool = new GatewayPool(options, deps);
  http.ops?.setSource(opsSource(pool, deps.storeReachable));
  return serveHttp(gatewayProduct(pool), http, { logger, ...(options.access ? { access: options.access } : {}), ...(deps.audit ? { audit: deps.audit } : {}) });
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
