// The base of every transport decorator in the host (request guard's peers: running requests, audit,
// server spans): what passes straight through to the wrapped transport, written once.
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import type { SpanHandle } from '../../util/telemetry/index.js';

/** The server spans of the requests a connection is handling, by request id (observed-transport.ts). */
interface RequestSpans {
  spanOf(id: RequestId): SpanHandle | undefined;
}

/** The server span of request `id` on `transport` (an observed transport, or a decorator over one). */
export function requestSpanOf(transport: Transport | undefined, id: RequestId): SpanHandle | undefined {
  return (transport as Partial<RequestSpans> | undefined)?.spanOf?.(id);
}

/** What a transport tells whoever started it. */
export interface EventHandlers {
  onclose: () => void;
  onerror: (error: Error) => void;
  onmessage: NonNullable<Transport['onmessage']>;
}

/**
 * Hands `transport`'s events to `handlers`. They come in an object rather than written as the values
 * of `transport.onclose` and the like: V8 allocates a function literal assigned to a property in its
 * old generation (it expects a method, which lives long), and from there a per-request handler kept
 * its request's objects alive through young collections (docs/performance.md, "Issue 37, sixteenth
 * round"; a lint rule holds all of src/ to it).
 */
export function hear(transport: Transport, handlers: EventHandlers): void {
  transport.onclose = handlers.onclose;
  transport.onerror = handlers.onerror;
  transport.onmessage = handlers.onmessage;
}

/**
 * `server`, connecting through `decorate(transport)`: how a per-request server (2026-07-28: the SDK's
 * serving entry connects each to a transport of its own) gets the decorator a session's transport has.
 */
export function connectingThrough<S extends { connect(transport: Transport): Promise<void> }>(server: S, decorate: (transport: Transport) => Transport): S {
  const connect = server.connect.bind(server);
  const decorated = (transport: Transport) => connect(decorate(transport)); // a const: see hear()
  server.connect = decorated;
  return server;
}

export abstract class TransportDecorator implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(protected readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  /** The server span of request `id`, from an observed transport underneath (observed-transport.ts). */
  spanOf(id: RequestId): SpanHandle | undefined {
    return requestSpanOf(this.inner, id);
  }

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion?.(version);
  setSupportedProtocolVersions = (versions: string[]): void => this.inner.setSupportedProtocolVersions?.(versions);

  abstract start(): Promise<void>;

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
