// The 2026-07-28 side of the HTTP endpoint: requests carrying the revision's per-request envelope go
// to the SDK's serving entry (`createMcpHandler`, a fresh server from the product's factory per
// request, `subscriptions/listen` streams); everything else stays with the sessionful 2025 host. The
// host's auth, Host/Origin checks and body bound have run before either leg sees a request.
import type http from 'node:http';
import { classifyInboundRequest, createMcpHandler, isJsonContentType, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from '../../protocol/values.js';
import { errorMessage, isPlainJsonRpcMessage, jsonRpcError, type Logger } from '../../util/index.js';
import type { Telemetry } from '../../util/telemetry/index.js';
import { sendJson } from './http-io.js';
import { fetchBridge } from './fetch-bridge.js';
import { forwardRetry, type RetryHolders } from './retry-forward.js';
import { listenedResources, type OnListen } from '../rpc/listen-tap.js';
import type { AuditSink } from '../access/audit-trail.js';
import { recordListen } from './listen-record.js';
import { observedServer } from '../rpc/observed-transport.js';
import { ScopedEventBus, type ScopedNotifier, type ScopeOf } from './scoped-events.js';


export interface ModernLeg {
  /** Publishes list changes and resource updates on open `subscriptions/listen` streams (each hears what its caller's scope lets through). */
  readonly notify: ScopedNotifier;
  /** Whether this POST (already read and parsed) is 2026-07-28 traffic. */
  claims(req: http.IncomingMessage, body: unknown): Promise<boolean>;
  serve(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void>;
  /** The host listens at `origin` (reachable by other replicas): retries held here name it. */
  listeningAt(origin: string): void;
  /** The host's telemetry: every request a per-request server answers gets a server span, as a session's do. */
  observedBy(telemetry: Telemetry, currentSpan?: boolean): void;
  close(): Promise<void>;
}

export interface ModernLegOptions {
  logger: Logger;
  maxBodyBytes: number;
  /** The product's waiting work: a retry whose work another replica holds is forwarded there. */
  retries?: RetryHolders;
  /**
   * A `subscriptions/listen` stream asking for updates of these resources opened (the SDK filters what
   * reaches it; the product makes the updates happen, e.g. by subscribing upstream); `ended` aborts when it closes.
   */
  onListen?: OnListen;
  /** Which change events a caller's listen streams hear (default: all of them). */
  scopeOf?: ScopeOf;
  /** Where listen streams are recorded (the SDK serves them without a server's transport, which the product's audit decorates). */
  audit?: AuditSink;
}

/** The modern leg over a product's per-request server factory (2026-07-28 only: 2025 traffic never reaches it). */
export function createModernLeg(factory: McpServerFactory, options: ModernLegOptions): ModernLeg {
  const onerror = (error: Error) => options.logger.debug('mcp 2026-07-28 request refused or failed', { error: errorMessage(error) });
  let telemetry: Telemetry | undefined;
  let currentSpan: boolean | undefined;
  const observed: McpServerFactory = async (ctx) => {
    const server = await factory(ctx);
    return telemetry ? observedServer(server, telemetry, { transport: 'tcp', protocolVersion: () => MODERN_REVISION, currentSpan }) : server;
  };
  const bus = new ScopedEventBus(onerror);
  const handler = createMcpHandler(observed, { legacy: 'reject', maxRequestBodySize: options.maxBodyBytes, onerror, bus });
  const node = fetchBridge(handler, onerror);
  return {
    notify: bus.notifier,
    async claims(req, body) {
      // The SDK's own classifier (behind isLegacyRequest and createMcpHandler's routing), on the body
      // the host has parsed and the standard headers read off the Node request: a web Request and its
      // Headers built only to ask isLegacyRequest took 3.5% of the gateway's CPU (docs/performance.md).
      if (body === undefined) return false; // no JSON body: isLegacyRequest's "legacy"
      if (namesTheRevision(req.headers['mcp-protocol-version'], body)) return true;
      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: header('mcp-protocol-version'),
        mcpMethodHeader: header('mcp-method'),
        mcpNameHeader: header('mcp-name'),
        body,
      });
      return route.kind !== 'legacy';
    },
    async serve(req, res, body) {
      if (!isJsonContentType(req.headers['content-type'] ?? null)) {
        return sendJson(res, 415, jsonRpcError(null, -32000, 'Unsupported Media Type: Content-Type must be application/json'));
      }
      const malformed = malformedRetry(body);
      if (malformed) return sendJson(res, 400, malformed);
      if (options.retries && (await forwardRetry(options.retries, req, res, body, options.logger))) return;
      const auth = (req as http.IncomingMessage & { auth?: AuthInfo }).auth;
      if ((body as { method?: unknown } | null)?.method === 'subscriptions/listen') recordListen({ telemetry, audit: options.audit }, body as { id?: unknown; params?: Record<string, unknown> }, auth, req, res);
      const onListen = options.onListen;
      const uris = onListen ? listenedResources(body) : undefined;
      if (onListen && uris) {
        const ended = new AbortController();
        res.once('close', () => ended.abort());
        onListen(uris, auth, ended.signal);
      }
      if (!options.scopeOf) return node(req, res, body);
      await bus.within(options.scopeOf(auth), () => node(req, res, body));
    },
    listeningAt: (origin) => options.retries?.listeningAt(origin),
    observedBy(t, current) {
      telemetry = t;
      currentSpan = current;
    },
    close: () => handler.close(),
  };
}

/**
 * A plain JSON-RPC request (as the SDK's message schema accepts it unchanged) whose
 * `MCP-Protocol-Version` header names 2026-07-28 is this leg's whatever its envelope says: the SDK's
 * classifier answers it modern, or refuses it as the modern path refuses (a missing or bad
 * envelope, an `initialize`), never legacy. Most 2026-07-28 traffic is such a request, and is routed
 * without running the classifier twice (the entry runs it again); a test holds this against it.
 */
export function namesTheRevision(versionHeader: string | string[] | undefined, body: unknown): boolean {
  return versionHeader === MODERN_REVISION && isPlainJsonRpcMessage(body) && 'id' in (body as object) && 'method' in (body as object);
}

/**
 * A retry's `inputResponses` must be an object of result objects and its `requestState` a string;
 * the SDK would read anything else as "no answer" and run the request as new, so it is refused here.
 */
function malformedRetry(body: unknown): ReturnType<typeof jsonRpcError> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, params } = body as { id?: string | number; params?: Record<string, unknown> };
  if (typeof params !== 'object' || params === null) return undefined;
  const bad = (value: unknown) => typeof value !== 'object' || value === null || Array.isArray(value);
  if ('inputResponses' in params) {
    const responses = params.inputResponses;
    if (bad(responses)) return jsonRpcError(id ?? null, -32602, 'Invalid params: inputResponses must be an object mapping the keys of inputRequests to their responses');
    const wrong = Object.entries(responses as Record<string, unknown>).find(([, v]) => bad(v));
    if (wrong) return jsonRpcError(id ?? null, -32602, `Invalid params: inputResponses.${wrong[0]} must be the result object of that input request`);
  }
  if ('requestState' in params && typeof params.requestState !== 'string') return jsonRpcError(id ?? null, -32602, 'Invalid params: requestState must be the string the server sent');
  return undefined;
}
