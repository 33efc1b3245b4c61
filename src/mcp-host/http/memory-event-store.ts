// SSE resumption for one HTTP session: every message sent on a stream is kept (up to a count and a
// byte bound per session, and a byte budget shared by all sessions of a host) under an event id, so
// a client that reconnects with Last-Event-ID gets what it missed.
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import { Fifo } from '../../util/index.js';

export const DEFAULT_EVENT_STORE_LIMIT = 10_000;
/**
 * Serialized bytes kept per session. A count alone would let a session of large results pin
 * 10,000 of them (the soak saw every session grow for minutes); resumption needs only recent events.
 */
export const DEFAULT_EVENT_STORE_BYTES = 4 * 1024 * 1024;
/**
 * Bytes kept by all sessions of one host together. Sessions are cheap and many (thousands), so the
 * per-session bound alone would allow gigabytes; past this budget the oldest events of any session go.
 */
export const DEFAULT_EVENT_BUDGET_BYTES = 64 * 1024 * 1024;
/** What one kept event costs beyond its text (entry objects, ids), charged to the shared budget. */
const EVENT_OVERHEAD_BYTES = 128;

interface Stored {
  streamId: StreamId;
  /** Kept serialized: one flat string is far smaller than the message's object tree. */
  text: string;
  seq: number;
}

/**
 * Appends `key` to the age order of `live` (a Map in the same insertion order). Keys deleted from
 * `live` elsewhere stay in the order until met; once they outnumber the live ones, the order is
 * rebuilt from the Map, so it never grows beyond twice what is kept.
 */
function pushOrdered<K>(order: Fifo<K>, key: K, live: Map<K, unknown>): void {
  if (order.length >= 2 * live.size + 1024) order.reset(live.keys());
  else order.push(key);
}

/**
 * The byte budget shared by the event stores of one host: past it, the oldest event of the caller
 * (the owner of the sessions) holding the most bytes goes first, so one caller's streams cannot push
 * out another's; all sessions of an endpoint without OAuth are one caller.
 */
export class EventBudget {
  private readonly kept = new Map<number, { store: MemoryEventStore; id: EventId; bytes: number; owner: string | undefined }>();
  private readonly owners = new Map<string | undefined, { bytes: number; count: number; order: Fifo<number> }>();
  private seq = 0;
  private total = 0;

  constructor(readonly maxBytes: number = DEFAULT_EVENT_BUDGET_BYTES) {}

  /** Charges a new event; drops the oldest events of the heaviest caller until under budget (never the new one). */
  charge(store: MemoryEventStore, id: EventId, textLength: number): number {
    const seq = ++this.seq;
    const bytes = textLength + EVENT_OVERHEAD_BYTES;
    const owner = store.owner;
    this.kept.set(seq, { store, id, bytes, owner });
    const share = this.owners.get(owner) ?? { bytes: 0, count: 0, order: new Fifo<number>() };
    this.owners.set(owner, share);
    share.bytes += bytes;
    share.count += 1;
    // Released seqs stay in the order until met: rebuilt once they outnumber the live ones.
    if (share.order.length >= 2 * share.count + 1024) share.order.reset([...this.kept].filter(([, e]) => e.owner === owner).map(([s]) => s));
    else share.order.push(seq);
    this.total += bytes;
    while (this.total > this.maxBytes && this.kept.size > 1) {
      const oldest = this.oldestOfHeaviest(seq);
      if (oldest === undefined) break;
      const entry = this.kept.get(oldest)!;
      this.release(oldest);
      entry.store.drop(entry.id);
    }
    return seq;
  }

  release(seq: number): void {
    const entry = this.kept.get(seq);
    if (!entry) return;
    this.kept.delete(seq);
    this.total -= entry.bytes;
    const share = this.owners.get(entry.owner)!;
    share.bytes -= entry.bytes;
    share.count -= 1;
    if (share.count === 0) this.owners.delete(entry.owner);
  }

  /** Bytes charged now, overhead included. */
  get bytes(): number {
    return this.total;
  }

  /** The oldest live event of the caller holding the most bytes, never `spare` (the event just charged). */
  private oldestOfHeaviest(spare: number): number | undefined {
    const shares = [...this.owners.values()].sort((a, b) => b.bytes - a.bytes);
    for (const share of shares) {
      while (share.order.length > 0) {
        const seq = share.order.peek()!;
        if (!this.kept.has(seq)) {
          share.order.shift();
          continue;
        }
        if (seq !== spare) return share.order.shift();
        break;
      }
    }
    return undefined;
  }
}

/** The SDK transport's stream id for a session's standalone (GET) stream. */
export const STANDALONE_STREAM_ID = '_GET_stream';

/** An event id before every event of `streamId`: replaying after it replays what the stream holds. */
export function streamStartId(streamId: StreamId): EventId {
  return `${streamId}_0`;
}

export class MemoryEventStore implements EventStore {
  // Insertion-ordered: replay walks forward from an id.
  private readonly events = new Map<EventId, Stored>();
  /** Event ids, oldest first; some already dropped by the budget (skipped when met). */
  private readonly order = new Fifo<EventId>();
  private seq = 0;
  private totalBytes = 0;

  constructor(
    private readonly limit: number = DEFAULT_EVENT_STORE_LIMIT,
    private readonly maxBytes: number = DEFAULT_EVENT_STORE_BYTES,
    private readonly budget: EventBudget | null = null,
    /** The caller whose session keeps these events (the budget's share). */
    readonly owner?: string,
  ) {}

  /** Oldest events go first; the newest is always kept, however large, so its stream can resume. */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.seq += 1;
    const id = `${streamId}_${this.seq}`;
    const text = JSON.stringify(message);
    this.events.set(id, { streamId, text, seq: 0 });
    pushOrdered(this.order, id, this.events);
    this.totalBytes += text.length;
    while (this.events.size > 1 && (this.events.size > this.limit || this.totalBytes > this.maxBytes)) {
      this.drop(this.order.shift()!);
    }
    // Charged last: the budget may drop this store's own older events, never this one.
    const stored = this.events.get(id)!;
    stored.seq = this.budget?.charge(this, id, text.length) ?? 0;
    return id;
  }

  /** Forgets one event (the budget calls this for the globally oldest). */
  drop(id: EventId): void {
    const stored = this.events.get(id);
    if (!stored) return;
    this.events.delete(id);
    this.totalBytes -= stored.text.length;
    this.budget?.release(stored.seq);
  }

  /** The session is gone: everything it kept goes, and its share of the budget is freed. */
  clear(): void {
    for (const id of [...this.events.keys()]) this.drop(id);
    this.order.reset();
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId ?? this.startOf(eventId);
  }

  /** Whether any event of `streamId` is kept. */
  holds(streamId: StreamId): boolean {
    for (const stored of this.events.values()) if (stored.streamId === streamId) return true;
    return false;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const start = this.startOf(lastEventId);
    const streamId = start ?? this.events.get(lastEventId)?.streamId;
    if (streamId === undefined) throw new Error(`event ${lastEventId} is unknown or no longer kept`);
    let after = start !== undefined;
    for (const [id, stored] of [...this.events]) {
      if (id === lastEventId) {
        after = true;
        continue;
      }
      if (after && stored.streamId === streamId) await send(id, JSON.parse(stored.text) as JSONRPCMessage);
    }
    return streamId;
  }

  /** The stream whose start `eventId` is (see streamStartId). */
  private startOf(eventId: EventId): StreamId | undefined {
    return eventId.endsWith('_0') ? eventId.slice(0, -2) : undefined;
  }

  get size(): number {
    return this.events.size;
  }

  /** Serialized size of the kept events (JSON characters). */
  get bytes(): number {
    return this.totalBytes;
  }
}
