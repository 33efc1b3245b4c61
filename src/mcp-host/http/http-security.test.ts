import { describe, expect, it } from 'vitest';
import { checkAuthConfig } from './http-security.js';
import { EventBudget, MemoryEventStore } from './memory-event-store.js';

const TOKEN = 'a-token-of-sixteen+';

describe('auth configuration', () => {
  it('requires a token unless loopback with --insecure-no-auth', () => {
    expect(() => checkAuthConfig({ host: '127.0.0.1', port: 0 }, null, false)).toThrow(/no token/);
    expect(() => checkAuthConfig({ host: '127.0.0.1', port: 0 }, null, true)).not.toThrow();
    expect(() => checkAuthConfig({ host: '0.0.0.0', port: 0 }, null, true)).toThrow(/only allowed on a loopback address/);
    expect(() => checkAuthConfig({ host: '0.0.0.0', port: 0 }, TOKEN, false)).not.toThrow();
    expect(() => checkAuthConfig({ host: '127.0.0.1', port: 0 }, 'short', false)).toThrow(/too short/);
    expect(() => checkAuthConfig({ host: '127.0.0.1', port: 0 }, TOKEN, true)).toThrow(/cannot be combined/);
  });
});

describe('MemoryEventStore', () => {
  const msg = (n: number) => ({ jsonrpc: '2.0' as const, method: 'n', params: { n } });

  it('replays what followed an event on the same stream only', async () => {
    const store = new MemoryEventStore(100);
    const a1 = await store.storeEvent('A', msg(1));
    await store.storeEvent('B', msg(2));
    await store.storeEvent('A', msg(3));
    await store.storeEvent('A', msg(4));
    const seen: unknown[] = [];
    const stream = await store.replayEventsAfter(a1, { send: async (_id, m) => void seen.push(m) });
    expect(stream).toBe('A');
    expect(seen).toEqual([msg(3), msg(4)]);
    expect(await store.getStreamIdForEventId(a1)).toBe('A');
  });

  it('keeps at most `limit` events, oldest dropped first', async () => {
    const store = new MemoryEventStore(2);
    const first = await store.storeEvent('A', msg(1));
    await store.storeEvent('A', msg(2));
    await store.storeEvent('A', msg(3));
    expect(store.size).toBe(2);
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    await expect(store.replayEventsAfter(first, { send: async () => {} })).rejects.toThrow(/no longer kept/);
  });

  it('keeps at most `maxBytes` of serialized events, oldest dropped first, the newest always', async () => {
    const big = (n: number, size: number) => ({ jsonrpc: '2.0' as const, method: 'n', params: { n, text: 'x'.repeat(size) } });
    const one = JSON.stringify(big(1, 1000)).length;
    const store = new MemoryEventStore(100, one * 3);
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.storeEvent('A', big(n, 1000)));
    expect(store.size).toBe(3);
    expect(store.bytes).toBe(one * 3);
    expect(await store.getStreamIdForEventId(ids[1]!)).toBeUndefined();
    const seen: unknown[] = [];
    await store.replayEventsAfter(ids[2]!, { send: async (_id, m) => void seen.push(m) });
    expect(seen).toEqual([big(4, 1000), big(5, 1000)]);
    // One event larger than the whole budget still stays (it is the newest); everything older goes.
    const huge = await store.storeEvent('B', big(6, one * 10));
    expect(store.size).toBe(1);
    expect(await store.getStreamIdForEventId(huge)).toBe('B');
    expect(store.bytes).toBe(JSON.stringify(big(6, one * 10)).length);
  });

  it('a budget shared by several stores drops the oldest event of any store first, never the newest', async () => {
    const budget = new EventBudget(3 * (JSON.stringify(msg(1)).length + 128));
    const a = new MemoryEventStore(100, 1_000_000, budget);
    const b = new MemoryEventStore(100, 1_000_000, budget);
    const a1 = await a.storeEvent('A', msg(1));
    await b.storeEvent('B', msg(2));
    await a.storeEvent('A', msg(3));
    await b.storeEvent('B', msg(4));
    expect(await a.getStreamIdForEventId(a1)).toBeUndefined();
    expect([a.size, b.size]).toEqual([1, 2]);
    b.clear();
    expect(budget.bytes).toBe(JSON.stringify(msg(3)).length + 128);
    const seen: unknown[] = [];
    const a4 = await a.storeEvent('A', msg(5));
    await a.storeEvent('A', msg(6));
    await a.replayEventsAfter(a4, { send: async (_id, m) => void seen.push(m) });
    expect(seen).toEqual([msg(6)]);
  });
});
