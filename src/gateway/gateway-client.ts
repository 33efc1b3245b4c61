// What the gateway's request handlers need of the client they serve: a 2025 session (one SDK server
// per connection) or one 2026-07-28 request (a fresh SDK server per request), both on the shared pool.
import type { InputRequiredResult, LoggingLevel, ProtocolEra, Server, ServerContext, Transport } from '@modelcontextprotocol/server';
import { requestSpanOf } from '../mcp-host/index.js';
import type { Logger } from '../util/index.js';
import type { TraceContext } from '../util/telemetry/index.js';
import type { CatalogView, GatewayMode } from './catalog-view.js';
import type { GatewayPool, PoolClient } from './gateway-pool.js';
import type { RelayClient } from './relay.js';
import type { Upstreams } from './upstreams.js';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** What the gateway offers clients of either era (a 2025 session adds `tasks`, a 2026-07-28 server the tasks extension); a fresh object per server. */
export function gatewayCapabilities() {
  return {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    logging: {},
  };
}

export interface GatewayClient extends PoolClient {
  readonly server: Server;
  /**
   * The transport observing this client's requests (their server spans), when the server's own does
   * not lead to it (stdio: the SDK serves on a channel of its own over the observed transport).
   */
  readonly observed?: Transport;
  readonly pool: GatewayPool;
  readonly logger: Logger;
  readonly catalog: CatalogView;
  readonly mode: GatewayMode;
  upstreams(): Upstreams;
  setLoggingLevel(level: LoggingLevel): void;
  /**
   * `legacy`: a 2025 session (tools/list in the catalog's order; task-augmented calls passed through,
   * as the session outlives its tasks). `modern`: a 2026-07-28 request (tools/list in a stable order,
   * as the revision asks; tasks through the tasks extension, when the tool supports them and the
   * request declares the extension).
   */
  readonly era: ProtocolEra;
  /**
   * Runs a request that may need the client's input on the way: at once for a 2025 session (the
   * relay asks it with server-to-client requests); over several rounds for a 2026-07-28 client.
   * `client` is who the relay asks: the session itself, or one object per 2026-07-28 request.
   * `subject`: what the request names (its tool, prompt or resource), which its retries must name too.
   */
  rounds<R>(ctx: ServerContext, subject: string, work: (ctx: ServerContext, client: RelayClient) => Promise<R>): Promise<R | InputRequiredResult>;
}

/**
 * The trace context of the request `ctx` is handling (its server span's), which what the gateway asks
 * upstreams for it continues; undefined when not tracing.
 */
export function traceParentOf(client: GatewayClient, ctx: ServerContext): TraceContext | undefined {
  return requestSpanOf(client.observed ?? client.server.transport, ctx.mcpReq.id)?.traceContext();
}
