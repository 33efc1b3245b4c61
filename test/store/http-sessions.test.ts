// Shared 2025 HTTP sessions in PostgreSQL: records per endpoint, SSE events replayed per stream
// after an id, bounded per session like the memory store, gone with their session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { PgSessionStore } from '../../src/store/postgres/pg-http-sessions.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { isMissing } from '../support/system-tags.js';

const skip = isMissing('postgresql');
let server: TestPostgres | undefined;
let store: Store;

beforeAll(async () => {
  if (skip) return;
  server = await startPostgres();
  store = await openStore({ home: '/x', settings: { postgres_url_env_var: 'DB' }, env: { DB: server.url } });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

const init = (n: number) => ({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { n }, clientInfo: { name: 'c', version: '1' } } });

async function replay(log: ReturnType<Store['httpSessions']> & object, sessionId: string, after: string): Promise<{ stream: string; sent: [string, unknown][] }> {
  const sent: [string, unknown][] = [];
  const stream = await log.events(sessionId).replayEventsAfter(after, { send: async (id, m) => void sent.push([id, m]) });
  return { stream, sent };
}

describe('shared HTTP sessions (PostgreSQL)', { tags: ['postgresql'] }, () => {
  it('keeps a record per endpoint: the same id in another scope is another session', async () => {
    const agent = store.httpSessions('mcp-server')!;
    const gateway = store.httpSessions('serve')!;
    await agent.save({ id: 's1', initialize: init(1) });
    expect(await agent.load('s1')).toEqual({ id: 's1', initialize: init(1) });
    expect(await gateway.load('s1')).toBeNull();
    await agent.touch('s1');
    await agent.delete('s1');
    expect(await agent.load('s1')).toBeNull();
  });

  it('replays the events after an id on the stream of that id only; an unknown id is refused', async () => {
    const sessions = store.httpSessions('mcp-server')!;
    await sessions.save({ id: 's2', initialize: init(2) });
    const log = sessions.events('s2');
    const first = await log.storeEvent('A', { n: 1 });
    await log.storeEvent('B', { n: 2 });
    const third = await log.storeEvent('A', { n: 3 });
    expect(await log.getStreamIdForEventId(first)).toBe('A');
    const { stream, sent } = await replay(sessions, 's2', first);
    expect(stream).toBe('A');
    expect(sent).toEqual([[third, { n: 3 }]]);
    expect(await log.getStreamIdForEventId('999999999')).toBeUndefined();
    await expect(replay(sessions, 's2', 'nope')).rejects.toThrow('event nope is unknown or no longer kept');
    // Another session cannot read them.
    expect(await sessions.events('other').getStreamIdForEventId(first)).toBeUndefined();
  });

  it('bounds a session by count and bytes (oldest first, the newest kept); delete and expiry take its events', async () => {
    const db = (store as Store & { db: ConstructorParameters<typeof PgSessionStore>[0] }).db;
    const small = new PgSessionStore(db, 'bounded', { count: 10, bytes: 1_000_000 });
    await small.save({ id: 's3', initialize: init(3) });
    const log = small.events('s3');
    const ids: string[] = [];
    for (let i = 0; i < 128; i += 1) ids.push(await log.storeEvent('S', { i }));
    // Trimmed on every 64th store: exactly the newest 10 remain.
    for (const id of ids.slice(118)) expect(await log.getStreamIdForEventId(id)).toBe('S');
    expect(await log.getStreamIdForEventId(ids[117]!)).toBeUndefined();
    const big = new PgSessionStore(db, 'bytes', { count: 10_000, bytes: 5_000 });
    const blog = big.events('s4');
    const bigIds: string[] = [];
    for (let i = 0; i < 64; i += 1) bigIds.push(await blog.storeEvent('S', { pad: 'x'.repeat(2_000) }));
    expect(await blog.getStreamIdForEventId(bigIds[63]!)).toBe('S');
    expect(await blog.getStreamIdForEventId(bigIds[62]!)).toBe('S');
    expect(await blog.getStreamIdForEventId(bigIds[61]!)).toBeUndefined();
    await small.delete('s3');
    expect(await log.getStreamIdForEventId(ids[127]!)).toBeUndefined();
    await big.save({ id: 's4', initialize: init(4) });
    await new Promise((r) => setTimeout(r, 50));
    await big.expire(1);
    expect(await big.load('s4')).toBeNull();
    expect(await blog.getStreamIdForEventId(bigIds[63]!)).toBeUndefined();
  });
});
