// SSE resumption for one HTTP session: every message sent on a stream is kept (up to a count and a
// byte bound) under an event id, so a client that reconnects with Last-Event-ID gets what it missed.
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

export const DEFAULT_EVENT_STORE_LIMIT = 10_000;
/**
 * Serialized bytes kept per session. A count alone would let a session of large results pin
 * 10,000 of them (the soak saw every session grow for minutes); resumption needs only recent events.
 */
export const DEFAULT_EVENT_STORE_BYTES = 4 * 1024 * 1024;

interface Stored {
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
}

export class MemoryEventStore implements EventStore {
  // Insertion-ordered: the oldest event is the first key, and replay walks forward from an id.
  private readonly events = new Map<EventId, Stored>();
  private seq = 0;
  private totalBytes = 0;

  constructor(
    private readonly limit: number = DEFAULT_EVENT_STORE_LIMIT,
    private readonly maxBytes: number = DEFAULT_EVENT_STORE_BYTES,
  ) {}

  /** Oldest events go first; the newest is always kept, however large, so its stream can resume. */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.seq += 1;
    const id = `${streamId}_${this.seq}`;
    const bytes = JSON.stringify(message).length;
    this.events.set(id, { streamId, message, bytes });
    this.totalBytes += bytes;
    while (this.events.size > 1 && (this.events.size > this.limit || this.totalBytes > this.maxBytes)) {
      const [oldest, stored] = this.events.entries().next().value!;
      this.events.delete(oldest);
      this.totalBytes -= stored.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const from = this.events.get(lastEventId);
    if (!from) throw new Error(`event ${lastEventId} is unknown or no longer kept`);
    let after = false;
    for (const [id, stored] of this.events) {
      if (id === lastEventId) {
        after = true;
        continue;
      }
      if (after && stored.streamId === from.streamId) await send(id, stored.message);
    }
    return from.streamId;
  }

  get size(): number {
    return this.events.size;
  }

  /** Serialized size of the kept events (JSON characters). */
  get bytes(): number {
    return this.totalBytes;
  }
}
