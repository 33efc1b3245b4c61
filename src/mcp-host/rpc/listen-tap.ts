// `subscriptions/listen` streams as the product sees them: which resources a listen request asks
// updates of, and a stdio transport decorator that reports each listen stream from its request to its
// end (the client's `notifications/cancelled` of it, or the connection closing). The SDK serves the
// streams themselves; this only lets the product make the updates happen (e.g. subscribe upstream).
import type { AuthInfo, RequestId, Transport } from '@modelcontextprotocol/server';
import { isNotification, isRequest } from './message-kind.js';
import { hear, TransportDecorator } from './transport-decorator.js';

/** A listen stream asking updates of `resourceUris` opened; `ended` aborts when it closes. */
export type OnListen = (resourceUris: string[], auth: AuthInfo | undefined, ended: AbortSignal) => void;

/** The resource URIs a `subscriptions/listen` request asks updates of (undefined for any other message). */
export function listenedResources(message: unknown): string[] | undefined {
  const m = message as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (m?.method !== 'subscriptions/listen') return undefined;
  const uris = m.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string') : undefined;
}

class ListenTap extends TransportDecorator {
  private readonly streams = new Map<RequestId, AbortController>();

  constructor(
    inner: Transport,
    private readonly onListen: OnListen,
  ) {
    super(inner);
  }

  async start(): Promise<void> {
    hear(this.inner, {
      onclose: () => {
        for (const ended of this.streams.values()) ended.abort();
        this.streams.clear();
        this.onclose?.();
      },
      onerror: (err) => this.onerror?.(err),
      onmessage: (message, extra) => {
        // Every message passes here: only two methods are looked at, by their name first.
        const method = (message as { method?: unknown }).method;
        if (method !== 'subscriptions/listen' && method !== 'notifications/cancelled') return this.onmessage?.(message, extra);
        if (isRequest(message)) {
          const uris = listenedResources(message);
          if (uris) {
            const ended = new AbortController();
            this.streams.get(message.id)?.abort();
            this.streams.set(message.id, ended);
            this.onListen(uris, extra?.authInfo, ended.signal);
          }
        } else if (isNotification(message) && method === 'notifications/cancelled') {
          const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
          if (id !== undefined) {
            this.streams.get(id)?.abort();
            this.streams.delete(id);
          }
        }
        this.onmessage?.(message, extra);
      },
    });
    await this.inner.start();
  }
}

/** `transport`, reporting the listen streams its client opens to `onListen`. */
export function listenTap(transport: Transport, onListen: OnListen): Transport {
  return new ListenTap(transport, onListen);
}
