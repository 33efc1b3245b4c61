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
