// 2025 sessions on a real cluster: a session opened on one replica is served by the others without a
// new initialize (agent server and gateway, directly and through nginx's round robin), and an SSE
// stream that dies with its replica resumes on another from the shared event store (Last-Event-ID).
import { describe, expect, it } from 'vitest';
import type { Replica } from '../../scripts/cluster/cluster.mjs';
import { sharedCluster } from '../support/shared-cluster.js';
import { RawHttpSession, readSse, type SseEvent } from '../support/raw-http-session.js';

const shared = sharedCluster();



/** The same session, addressed to another replica. */
function on(replica: Replica | string, session: RawHttpSession): RawHttpSession {
  const moved = new RawHttpSession(typeof replica === 'string' ? replica : replica.url, shared.cluster().token);
  moved.sessionId = session.sessionId;
  return moved;
}

const resultText = (r: Record<string, unknown>) => ((r.result as { content: { text: string }[] }).content[0]!.text);

describe('sessions on a cluster', { tags: shared.tags }, () => {
  it('an agent-server session opened on A is served by B, and B serves a thread A started in it', async () => {
    const [a, b] = shared.cluster().agents as [Replica, Replica];
    const sa = new RawHttpSession(a.url, shared.cluster().token);
    await sa.initialize();
    const sb = on(b, sa);
    const tools = await sb.request('tools/list');
    expect((tools.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['codex', 'codex-reply']);
    const started = await sa.request('tools/call', { name: 'codex', arguments: { prompt: 'hello' } });
    const threadId = (started.result as { structuredContent: { threadId: string } }).structuredContent.threadId;
    const reply = await sb.request('tools/call', { name: 'codex-reply', arguments: { threadId, prompt: 'again' } });
    expect(resultText(reply)).toBe('echo: again');
    await sb.close();
  });

  it('a gateway session opened on A is served by B: tools and calls to an upstream', async () => {
    const [a, b] = shared.cluster().gateways as [Replica, Replica];
    const sa = new RawHttpSession(a.url, shared.cluster().token);
    await sa.initialize();
    const sb = on(b, sa);
    const listed = (await sb.request('tools/list')).result as { tools: { name: string }[] };
    const echo = listed.tools.find((t) => t.name.endsWith('echo'))!;
    expect(echo).toBeDefined();
    expect(resultText(await sb.request('tools/call', { name: echo.name, arguments: { text: 'hi' } }))).toBe('up:hi');
  });

  it('through nginx (round robin, no stickiness) one session answers every request', async () => {
    const s = new RawHttpSession(shared.cluster().agentUrl!, shared.cluster().token);
    await s.initialize();
    for (let i = 0; i < 6; i += 1) expect((await s.request('ping')).result).toEqual({});
    const started = await s.request('tools/call', { name: 'codex', arguments: { prompt: 'via nginx' } });
    expect(resultText(started)).toBe('echo: via nginx');
  });

  it('while the database is down a session its replica holds keeps working, another replica answers 503 with the reason; all is back after', async () => {
    const [a, b] = shared.cluster().gateways as [Replica, Replica];
    const sa = new RawHttpSession(a.url, shared.cluster().token);
    await sa.initialize();
    const echo = ((await sa.request('tools/list')).result as { tools: { name: string }[] }).tools.find((t) => t.name.endsWith('echo'))!.name;
    await shared.cluster().postgres.stopServer();
    try {
      expect(resultText(await sa.request('tools/call', { name: echo, arguments: { text: 'during' } }))).toBe('up:during');
      const elsewhere = await on(b, sa).post({ jsonrpc: '2.0', id: 5, method: 'ping' });
      expect(elsewhere.status).toBe(503);
      expect(JSON.stringify(await elsewhere.json())).toMatch(/cannot restore this session here: the PostgreSQL store \(\$SWITCHBOARD_DATABASE_URL\) is unavailable/);
    } finally {
      await shared.cluster().postgres.start();
    }
    expect((await on(b, sa).request('ping')).result).toEqual({});
  });

  it('a stream that dies with its replica resumes on another from the shared event store (Last-Event-ID)', async () => {
    const [a, b] = shared.cluster().agents as [Replica, Replica];
    const sa = new RawHttpSession(a.url, shared.cluster().token);
    await sa.initialize();
    const res = await sa.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'cut off [hang]' } } });
    const seen: SseEvent[] = [];
    for await (const ev of readSse(res)) {
      seen.push(ev);
      const msg = (ev.message?.params as { msg?: { type?: string } } | undefined)?.msg;
      if (msg?.type === 'user_message') break;
    }
    const firstId = seen[0]!.id!;
    const missedTypes = seen.slice(1).map((e) => (e.message?.params as { msg: { type: string } }).msg.type);
    await a.kill('SIGKILL');
    const resumed = await fetch(b.url, { method: 'GET', headers: on(b, sa).headers({ 'last-event-id': firstId }) });
    expect(resumed.status).toBe(200);
    const replayed: string[] = [];
    for await (const ev of readSse(resumed)) {
      replayed.push((ev.message?.params as { msg: { type: string } }).msg.type);
      if (replayed.length === missedTypes.length) break;
    }
    expect(replayed).toEqual(missedTypes);
    await a.start();
  }, 60_000);
});
