import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { MemoryEventStore, STANDALONE_STREAM_ID, streamStartId } from './memory-event-store.js';

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
});
