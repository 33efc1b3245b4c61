// SSE resumption for one HTTP session: every message sent on a stream is kept (up to a bound) under
// an event id, so a client that reconnects with Last-Event-ID gets what it missed on that stream.
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

export const DEFAULT_EVENT_STORE_LIMIT = 10_000;

interface Stored {
  streamId: StreamId;
  message: JSONRPCMessage;
}

export class MemoryEventStore implements EventStore {
  // Insertion-ordered: the oldest event is the first key, and replay walks forward from an id.
  private readonly events = new Map<EventId, Stored>();
  private seq = 0;

  constructor(private readonly limit: number = DEFAULT_EVENT_STORE_LIMIT) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.seq += 1;
    const id = `${streamId}_${this.seq}`;
    this.events.set(id, { streamId, message });
    while (this.events.size > this.limit) {
      const oldest = this.events.keys().next().value;
      if (oldest === undefined) break;
      this.events.delete(oldest);
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
}
