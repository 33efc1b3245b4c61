// A server span for every MCP request served, on any transport: a decorator that starts the span when
// a request arrives (its parent from `_meta.traceparent`, else the HTTP `traceparent` header), runs
// the server's handling inside it, and ends it with the response (error.type from a JSON-RPC error
// code or an `isError` tool result).
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { mcpSpan, type OpenSpan, type Telemetry } from '../../util/telemetry/index.js';
import { requestKey } from './request-guard.js';
import { TransportDecorator } from './transport-decorator.js';

export interface ObservedTransportInfo {
  transport: 'pipe' | 'tcp';
  /** The revision negotiated (asked when a request arrives). */
  protocolVersion?(): string | undefined;
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

  constructor(
    inner: Transport,
    private readonly telemetry: Telemetry,
    private readonly info: ObservedTransportInfo,
  ) {
    super(inner);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => {
      for (const span of this.open.values()) {
        span.fail('connection_closed');
        span.end();
      }
      this.open.clear();
      this.onclose?.();
    };
    this.inner.onerror = (err) => this.onerror?.(err);
    this.inner.onmessage = (message, extra) => {
      if (!isJSONRPCRequest(message)) return this.onmessage?.(message, extra);
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
          protocolVersion: this.info.protocolVersion?.() ?? (message.method === 'initialize' ? (params?.protocolVersion as string | undefined) : undefined),
          transport: this.info.transport,
          ...(parent ? { parent } : {}),
        }),
      );
      const key = requestKey(message.id);
      this.open.get(key)?.end();
      this.open.set(key, span);
      span.within(() => this.onmessage?.(message, extra));
    };
    await this.inner.start();
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      const key = requestKey(message.id);
      const span = this.open.get(key);
      if (span) {
        this.open.delete(key);
        if (isJSONRPCErrorResponse(message)) {
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

/** `inner` with a server span per request; `inner` itself when telemetry is off. */
export function observedTransport(inner: Transport, telemetry: Telemetry, info: ObservedTransportInfo): Transport {
  return telemetry.active ? new ObservedTransport(inner, telemetry, info) : inner;
}
