// Threads on a real cluster (`startCluster`: PostgreSQL, three `mcp-server --http` replicas, nginx):
// a thread moves between replicas, one turn runs at a time across them, a replica killed mid-turn
// loses only that turn, and a database restart costs requests while it is down and nothing committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type Replica } from '../../scripts/cluster/cluster.mjs';
import { openStore, type Store } from '../../src/store/index.js';
import { connectClient, type TestClient, type ToolResult } from '../support/mcp-test-clients.js';
import { CLUSTER_TAGS } from '../support/shared-cluster.js';
import { isMissing } from '../support/system-tags.js';

const skip = CLUSTER_TAGS.some(isMissing);

let cluster: Cluster;
let store: Store;
const clients: TestClient[] = [];

beforeAll(async () => {
  if (skip) return;
  cluster = await startCluster({ replicas: 3, gateways: 0 });
  store = await openStore({ home: '/nonexistent', settings: { postgres_url_env_var: 'DB' }, env: { DB: cluster.databaseUrl } });
}, 120_000);

afterAll(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  await store?.close();
  await cluster?.stop();
}, 60_000);

async function client(replica: Replica): Promise<TestClient> {
  const c = await connectClient('v2', { kind: 'http', url: replica.url, token: cluster.token });
  clients.push(c);
  return c;
}

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('');

async function events(threadId: string): Promise<Record<string, unknown>[]> {
  const stored = await store.threads.load(threadId);
  return stored!.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> })
    .filter((l) => l.type === 'event_msg')
    .map((l) => l.payload);
}

describe('threads on a cluster', { tags: CLUSTER_TAGS }, () => {
  it('a thread started on replica A continues on B, then on C, with its whole history', async () => {
    const [a, b, c] = cluster.agents as [Replica, Replica, Replica];
    const first = await (await client(a)).callTool('codex', { prompt: 'one' });
    expect(textOf(first)).toBe('echo: one');
    const threadId = first.structuredContent!.threadId;
    const second = await (await client(b)).callTool('codex-reply', { threadId, prompt: 'two' });
    expect(second).toMatchObject({ structuredContent: { threadId, content: 'echo: two' } });
    const third = await (await client(c)).callTool('codex-reply', { threadId, prompt: 'three' });
    expect(third.isError).toBeFalsy();
    expect(textOf(third)).toBe('echo: three');
    const turns = (await events(threadId)).filter((e) => e.type === 'user_message').map((e) => e.message);
    expect(turns).toEqual(['one', 'two', 'three']);
  });

  it('two codex-reply calls for one thread on two replicas at once: one runs, the other gets the busy answer', async () => {
    const [a, b, c] = cluster.agents as [Replica, Replica, Replica];
    const threadId = (await (await client(a)).callTool('codex', { prompt: 'start' })).structuredContent!.threadId;
    const [cb, cc] = [await client(b), await client(c)];
    const slow = cb.callTool('codex-reply', { threadId, prompt: 'slow [sleep 1500]' });
    // The slow turn holds the lease once its task_started reached its client.
    while (!cb.events.some((e) => e._meta.threadId === threadId && e.msg.type === 'task_started')) await new Promise((r) => setTimeout(r, 20));
    const busy = await cc.callTool('codex-reply', { threadId, prompt: 'too soon' });
    expect(busy).toMatchObject({ isError: true, structuredContent: { threadId } });
    expect(textOf(busy)).toBe('A Codex request is still running for this thread; wait for its response before replying.');
    expect(textOf(await slow)).toBe('echo: slow [sleep 1500]');
    // Free again once the turn answered, on any replica.
    expect(textOf(await cc.callTool('codex-reply', { threadId, prompt: 'now' }))).toBe('echo: now');
  });

  it('kill -9 of the replica running a turn: its lease expires within 10 s and another replica continues the thread, the killed turn recorded as aborted', async () => {
    const [, b, c] = cluster.agents as [Replica, Replica, Replica];
    const threadId = (await (await client(c)).callTool('codex', { prompt: 'before' })).structuredContent!.threadId;
    const cb = await client(b);
    // Its client may keep trying to resume the dead stream; it is closed at the end of the file.
    const doomed = cb.callTool('codex-reply', { threadId, prompt: 'never answered [hang]' }).then(
      () => 'answered',
      () => 'failed',
    );
    while (cluster.echo!.stats.hanging === 0) await new Promise((r) => setTimeout(r, 20));
    await b.kill('SIGKILL');
    const killedAt = Date.now();
    const cc = await client(c);
    let result: ToolResult;
    for (;;) {
      result = await cc.callTool('codex-reply', { threadId, prompt: 'after' });
      if (!textOf(result).startsWith('A Codex request is still running')) break;
      expect(Date.now() - killedAt).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(textOf(result)).toBe('echo: after');
    const evs = await events(threadId);
    const killedTurn = evs.find((e) => e.type === 'task_started' && evs.indexOf(e) > evs.findIndex((u) => u.type === 'user_message' && u.message === 'before'))!;
    expect(evs).toContainEqual({ type: 'turn_aborted', turn_id: killedTurn.turn_id, reason: 'interrupted' });
    expect(evs.filter((e) => e.type === 'user_message').map((e) => e.message)).toEqual(['before', 'never answered [hang]', 'after']);
    await b.start(); // back for the next test
    await cb.close();
    expect(await doomed).toBe('failed');
  }, 60_000);

  it('the database restarted mid-run: requests fail with a clear error while it is down, work after, nothing committed lost', async () => {
    const [a, b] = cluster.agents as [Replica, Replica, Replica];
    const ca = await client(a);
    const threadId = (await ca.callTool('codex', { prompt: 'kept' })).structuredContent!.threadId;
    await cluster.postgres.stopServer();
    let down: ToolResult;
    try {
      down = await (await client(b)).callTool('codex-reply', { threadId, prompt: 'while down' });
    } finally {
      await cluster.postgres.start();
    }
    expect(down.isError).toBe(true);
    expect(textOf(down)).toMatch(/^Failed to resume Codex session .*: the PostgreSQL store \(\$SWITCHBOARD_DATABASE_URL\) is unavailable: could not take the thread lease: .*; retry once the database is back$/);
    const after = await (await client(b)).callTool('codex-reply', { threadId, prompt: 'after restart' });
    expect(textOf(after)).toBe('echo: after restart');
    expect((await events(threadId)).filter((e) => e.type === 'user_message').map((e) => e.message)).toEqual(['kept', 'after restart']);
  }, 60_000);
});
