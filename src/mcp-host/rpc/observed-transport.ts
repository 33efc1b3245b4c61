// A server span for every MCP request served, on any transport: a decorator that starts the span when
// a request arrives (its parent from `_meta.traceparent`, else the HTTP `traceparent` header), runs
// the server's handling inside it (or leaves handlers to look it up by request id), and ends it with
// the response (error.type from a JSON-RPC error code or an `isError` tool result).
import {
  PROTOCOL_VERSION_META_KEY,
  type JSONRPCMessage,
  type RequestId,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { isErrorResponse, isNotification, isRequest, isResult } from './message-kind.js';
import { mcpSpan, type OpenSpan, type SpanHandle, type Telemetry } from '../../util/telemetry/index.js';
import { requestKey } from './request-guard.js';
import { connectingThrough, hear, TransportDecorator } from './transport-decorator.js';

export { requestSpanOf } from './transport-decorator.js';

export interface ObservedTransportInfo {
  transport: 'pipe' | 'tcp';
  /** The revision negotiated (asked when a request arrives). */
  protocolVersion?(): string | undefined;
  /**
   * Whether a request's server span is the current span while the server handles it (default true).
   * A product whose handlers look the span up themselves (`spanOf`) and pass its trace context on (the
   * gateway's relays) sets false: the async context would cost each request more than its span.
   */
  currentSpan?: boolean;
}

/** The revision a request claims before one was negotiated: initialize's, or a 2026-07-28 request's envelope. */
function claimedVersion(method: string, params: Record<string, unknown> | undefined): string | undefined {
  const claimed = method === 'initialize' ? params?.protocolVersion : (params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
  return typeof claimed === 'string' ? claimed : undefined;
}

function headerParent(extra: MessageExtraInfo | undefined): { traceparent?: string; tracestate?: string } | undefined {
  const headers = extra?.request?.headers;
  const traceparent = headers?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = headers?.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

class ObservedTransport extends TransportDecorator {
  private readonly open = new Map<string, OpenSpan>();
  /** Open listen streams (their client ends them by cancelling: that is no failure). */
  private readonly listens = new Set<string>();

  constructor(
    inner: Transport,
    private readonly telemetry: Telemetry,
    private readonly info: ObservedTransportInfo,
  ) {
    super(inner);
  }

  async start(): Promise<void> {
    hear(this.inner, {
      onclose: () => {
        for (const span of this.open.values()) {
          span.fail('connection_closed');
          span.end();
        }
        this.open.clear();
        this.listens.clear();
        this.onclose?.();
      },
      onerror: (err) => this.onerror?.(err),
      onmessage: (message, extra) => {
        if (isNotification(message) && message.method === 'notifications/cancelled') this.cancelled(message.params);
        if (!isRequest(message)) return this.onmessage?.(message, extra);
        const params = message.params as Record<string, unknown> | undefined;
        const meta = params?._meta as { traceparent?: unknown; tracestate?: unknown } | undefined;
        const parent = typeof meta?.traceparent === 'string' ? meta : headerParent(extra);
        const span = this.telemetry.start(
          mcpSpan({
            kind: 'server',
            method: message.method,
            params,
            requestId: message.id,
            sessionId: this.inner.sessionId,
            protocolVersion: this.info.protocolVersion?.() ?? claimedVersion(message.method, params),
            transport: this.info.transport,
            ...(parent ? { parent } : {}),
          }),
        );
        const key = requestKey(message.id);
        this.open.get(key)?.end();
        this.open.set(key, span);
        if (message.method === 'subscriptions/listen') this.listens.add(key);
        if (this.info.currentSpan === false) this.onmessage?.(message, extra);
        else span.within(() => this.onmessage?.(message, extra));
      },
    });
    await this.inner.start();
  }

  /** The client cancelled a request (or ended a listen stream): its span ends now, as no response may follow. */
  private cancelled(params: Record<string, unknown> | undefined): void {
    const id = params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const key = requestKey(id);
    const span = this.open.get(key);
    if (!span) return;
    this.open.delete(key);
    if (!this.listens.delete(key)) span.fail('cancelled');
    span.end();
  }

  override spanOf(id: RequestId): SpanHandle | undefined {
    return this.open.get(requestKey(id));
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ((isResult(message) || isErrorResponse(message)) && message.id !== undefined) {
      const key = requestKey(message.id);
      const span = this.open.get(key);
      if (span) {
        this.open.delete(key);
        this.listens.delete(key);
        if (isErrorResponse(message)) {
          span.set('rpc.response.status_code', String(message.error.code));
          span.fail(String(message.error.code));
        } else if ((message.result as { isError?: unknown }).isError === true) {
          span.fail('tool_error');
        }
        span.end();
      }
    }
    return this.inner.send(message, options);
  }

}

/**
 * A per-request server (2026-07-28: the SDK's serving entry connects each to a transport of its own)
 * whose transport is observed like a session's; `server` untouched when telemetry is off.
 */
export function observedServer<S extends { connect(transport: Transport): Promise<void> }>(server: S, telemetry: Telemetry, info: ObservedTransportInfo): S {
  return telemetry.active ? connectingThrough(server, (transport) => new ObservedTransport(transport, telemetry, info)) : server;
}

/** `inner` with a server span per request; `inner` itself when telemetry is off. */
export function observedTransport(inner: Transport, telemetry: Telemetry, info: ObservedTransportInfo): Transport {
  return telemetry.active ? new ObservedTransport(inner, telemetry, info) : inner;
}
