import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { EventBudget, MemoryEventStore, STANDALONE_STREAM_ID, streamStartId } from './memory-event-store.js';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

describe('MemoryEventStore', () => {
  it("replays a whole stream from its start id, and only that stream's events", async () => {
    const store = new MemoryEventStore();
    expect(store.holds(STANDALONE_STREAM_ID)).toBe(false);
    await store.storeEvent(STANDALONE_STREAM_ID, note(1));
    await store.storeEvent('request-stream', note(2));
    await store.storeEvent(STANDALONE_STREAM_ID, note(3));
    expect(store.holds(STANDALONE_STREAM_ID)).toBe(true);
    const start = streamStartId(STANDALONE_STREAM_ID);
    expect(await store.getStreamIdForEventId(start)).toBe(STANDALONE_STREAM_ID);
    const sent: unknown[] = [];
    expect(await store.replayEventsAfter(start, { send: async (_id, m) => void sent.push((m as unknown as { params: { data: number } }).params.data) })).toBe(STANDALONE_STREAM_ID);
    expect(sent).toEqual([1, 3]);
  });

  const replayed = async (store: MemoryEventStore, streamId: string): Promise<number[]> => {
    const sent: number[] = [];
    await store.replayEventsAfter(streamStartId(streamId), { send: async (_id, m) => void sent.push((m as unknown as { params: { data: number } }).params.data) });
    return sent;
  };

  it('at its count bound keeps exactly the newest events, in order, however long it runs', async () => {
    const store = new MemoryEventStore(100);
    for (let i = 1; i <= 5_000; i++) await store.storeEvent('s', note(i));
    expect(store.size).toBe(100);
    expect(await replayed(store, 's')).toEqual(Array.from({ length: 100 }, (_, k) => 4_901 + k));
  });

  it('the shared budget drops the oldest events of any store, and each store still trims its own oldest first', async () => {
    const bytes = JSON.stringify(note(1_000)).length;
    const budget = new EventBudget(50 * (bytes + 128));
    const a = new MemoryEventStore(20, Number.MAX_SAFE_INTEGER, budget);
    const b = new MemoryEventStore(20, Number.MAX_SAFE_INTEGER, budget);
    for (let i = 1_000; i < 1_040; i++) await a.storeEvent('s', note(i));
    for (let i = 2_000; i < 3_000; i++) await b.storeEvent('s', note(i));
    // Each store's own bound holds it at 20; 40 events are under the budget, so it dropped nothing.
    expect(await replayed(b, 's')).toEqual(Array.from({ length: 20 }, (_, k) => 2_980 + k));
    expect(await replayed(a, 's')).toEqual(Array.from({ length: 20 }, (_, k) => 1_020 + k));
    const c = new MemoryEventStore(1_000, Number.MAX_SAFE_INTEGER, budget);
    for (let i = 0; i < 45; i++) await c.storeEvent('s', note(3_000 + i));
    // 85 events would be over the budget of 50: the 35 oldest anywhere (a's 20, then b's 15) went.
    expect(await replayed(a, 's')).toEqual([]);
    expect(await replayed(b, 's')).toEqual([2_995, 2_996, 2_997, 2_998, 2_999]);
    for (let i = 3_000; i < 3_030; i++) await b.storeEvent('s', note(i));
    expect(await replayed(b, 's')).toEqual(Array.from({ length: 20 }, (_, k) => 3_010 + k));
    expect(budget.bytes).toBeLessThanOrEqual(50 * (bytes + 128));
  });
});

describe('EventBudget shares', () => {
  it("drops, past the budget, the oldest events of the caller keeping the most, never another caller's", async () => {
    const bytes = JSON.stringify(note(1_000)).length;
    const budget = new EventBudget(30 * (bytes + 128));
    const alice = new MemoryEventStore(1_000, Number.MAX_SAFE_INTEGER, budget, 'alice');
    const mallory = [new MemoryEventStore(1_000, Number.MAX_SAFE_INTEGER, budget, 'mallory'), new MemoryEventStore(1_000, Number.MAX_SAFE_INTEGER, budget, 'mallory')];
    for (let i = 0; i < 5; i++) await alice.storeEvent('s', note(1_000 + i));
    for (let i = 0; i < 100; i++) await mallory[i % 2]!.storeEvent('s', note(2_000 + i));
    // Alice's five are older than everything of Mallory's, and all still kept.
    expect(alice.size).toBe(5);
    expect(mallory[0]!.size + mallory[1]!.size).toBe(25);
    expect(budget.bytes).toBeLessThanOrEqual(30 * (bytes + 128));
  });
});
