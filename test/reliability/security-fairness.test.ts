// One abusive caller against `switchboard serve --http` with per-caller limits and a small session
// bound (the built CLI, JWTs from a real authorization server fixture, loopback only, bounded): its
// running tasks count against its concurrent calls; its sessions cannot evict or lock out another
// caller's; its notifications count against its requests per minute, and over that limit it is
// refused before its body is read. Each refusal is audited with the tool it named.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../support/mcp-server-harness.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');
const MAX_SESSIONS = 4;
const PER_MINUTE = 12;
/** As many concurrent calls as the sessions: a caller may hold every session busy, as the finding had it. */
const CONCURRENT = MAX_SESSIONS;

describe('serve --http: one abusive caller cannot starve the others', () => {
  let fixture: OAuthFixture;
  let home: string;
  let serve: ServeProcess;
  let url: string;
  const token = (sub: string) => fixture.mintAccessToken({ sub });
  const sessions: RawHttpSession[] = [];

  beforeAll(async () => {
    requireBuild();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    fixture = await startOAuthFixture({ jwt: { audience: url } });
    home = await tempDir('sb-sec-fairness-');
    await mkdir(path.join(home, 'work'));
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.up]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(UPSTREAM_FIXTURE)}]

[mcp_servers.tasks]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(TASK_FIXTURE)}]

[server_auth]
issuer = "${fixture.issuer}"
audience = "${url}"
limits = { requests_per_minute = ${PER_MINUTE}, concurrent_calls = ${CONCURRENT} }
`,
    );
    serve = await spawnServe(['--http', `127.0.0.1:${port}`, '--max-sessions', String(MAX_SESSIONS)], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: path.join(home, 'work') });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close().catch(() => {})));
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  async function open(sub: string): Promise<RawHttpSession> {
    const session = new RawHttpSession(url, await token(sub));
    await session.initialize();
    sessions.push(session);
    return session;
  }

  const audit = async () =>
    (await readFile(path.join(home, 'log', 'audit.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("counts a caller's running tasks against its concurrent calls, and no one else's", async () => {
    const mallory = await open('mallory');
    const task = (label: string) => mallory.post({ jsonrpc: '2.0', id: label, method: 'tools/call', params: { name: 'mcp__tasks__work', arguments: { label, steps: 400, stepMs: 50 }, task: { ttl: 60_000 } } });
    for (const label of Array.from({ length: CONCURRENT }, (_, i) => `t${i}`)) {
      const created = await task(label);
      expect(created.status).toBe(200);
      expect(JSON.stringify(await mallory.responseOn(created, label))).toContain('"status":"working"');
    }
    // Her tasks run: one more call of any kind is over her concurrent calls.
    const third = await mallory.post({ jsonrpc: '2.0', id: 'one-more', method: 'tools/call', params: { name: 'mcp__up__echo', arguments: { text: 'x' } } });
    expect(third.status).toBe(429);
    const alice = await open('alice');
    const call = await alice.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'mcp__up__echo', arguments: { text: 'mine' } } });
    expect(call.status).toBe(200);
    expect(JSON.stringify(await alice.responseOn(call, 1))).toContain('up:mine');
    await waitFor(async () => (await audit()).some((r) => r.subject === 'mallory' && r.outcome === 'too_many_calls' && r.tool === 'mcp__up__echo'), 'the refusal, with its tool, in the audit trail', 10_000);
  }, 60_000);

  it("gives a newcomer room from the caller holding the most sessions, even when all of them are busy, and refuses that caller instead", async () => {
    // The sessions of the probes before are gone: the table is Trudy's to fill.
    await Promise.all(sessions.splice(0).map((s) => s.close()));
    const trudy: RawHttpSession[] = [];
    const busy: Promise<unknown>[] = [];
    while (trudy.length < MAX_SESSIONS) {
      const s = await open('trudy');
      trudy.push(s);
      const res = await s.post({ jsonrpc: '2.0', id: 'hold', method: 'tools/call', params: { name: 'mcp__up__wait_for_cancel', arguments: {} } });
      expect(res.status).toBe(200);
      busy.push(s.responseOn(res, 'hold').catch(() => undefined));
    }
    // Every session is Trudy's and has a call in flight: Bob still gets one, Trudy gives way.
    const bob = await open('bob');
    expect(bob.sessionId).toBeTruthy();
    const more = new RawHttpSession(url, await token('trudy'));
    await expect(more.initialize()).rejects.toThrow(/503|Too many sessions/);
    await Promise.all(trudy.map((s) => s.close().catch(() => {})));
    await Promise.race([Promise.all(busy), new Promise((r) => setTimeout(r, 5_000))]);
  }, 60_000);

  it('counts notifications against requests per minute, and refuses a caller over it before reading its body', async () => {
    const eve = await open('eve');
    const seen = async (s: RawHttpSession) => {
      const answer = (await s.request('tools/call', { name: 'mcp__up__seen', arguments: {} })) as { result: { content: { text: string }[] } };
      return JSON.parse(answer.result.content[0]!.text) as { rootsChanged: number };
    };
    const alice = await open('alice-2');
    const before = (await seen(alice)).rootsChanged;
    let status = 200;
    for (let n = 0; n < PER_MINUTE + 1 && status !== 429; n++) status = await eve.notify('notifications/roots/list_changed');
    expect(status).toBe(429);
    expect((await seen(alice)).rootsChanged - before).toBeLessThanOrEqual(PER_MINUTE);
    // Over her limit: a body that never ends is answered at once, not waited for.
    const started = Date.now();
    const stalled = await fetch(url, {
      method: 'POST',
      headers: { ...eve.headers(), 'content-type': 'application/json' },
      body: new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",')) }),
      duplex: 'half',
    } as RequestInit);
    expect(stalled.status).toBe(429);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);
});
