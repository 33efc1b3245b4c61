// `switchboard mcp-server --http`: the front door (bearer token, Host and Origin checks, refusing to
// start unprotected), the session bound (least recently used idle session closed) and turn limits,
// request-id reuse, and SSE resumption with Last-Event-ID across a dropped stream while an approval
// is pending.
import http from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { codexProduct } from '../../src/agent-server/index.js';
import { serveHttp, type HttpHost } from '../../src/mcp-host/index.js';
import { nullLogger } from '../../src/util/index.js';
import { responsesTurn, rsp, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { inProcessAgent, type InProcess } from '../support/in-process-server.js';
import { RawHttpSession, readSse, type SseEvent } from '../support/raw-http-session.js';

const TOKEN = 'http-test-token-0123456789';
let model: FakeModelServer;
let ip: InProcess;
let host: HttpHost | null = null;

beforeEach(async () => {
  model = await startFakeModelServer();
});
afterEach(async () => {
  await host?.close();
  host = null;
  await ip?.cleanup();
  await model.close();
});

async function serve(opts: { token?: string | null; maxSessions?: number; maxTurns?: number; idleTimeoutMs?: number } = {}): Promise<HttpHost> {
  ip = await inProcessAgent(model, { maxTurns: opts.maxTurns });
  const token = opts.token === undefined ? TOKEN : opts.token;
  host = await serveHttp(
    codexProduct(ip.agent, ip.options, nullLogger),
    {
      listen: { host: '127.0.0.1', port: 0 },
      token,
      insecureNoAuth: token === null,
      ...(opts.maxSessions ? { maxSessions: opts.maxSessions } : {}),
      ...(opts.idleTimeoutMs ? { idleTimeoutMs: opts.idleTimeoutMs } : {}),
    },
    { logger: nullLogger },
  );
  return host;
}

/** A request with headers fetch will not let us set (Host). */
function rawPost(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } };

describe('the front door', () => {
  it('requires the bearer token', async () => {
    const h = await serve();
    const none = await rawPost(h.url, {}, INIT);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="switchboard"');
    expect(JSON.parse(none.body).error.message).toMatch(/^Unauthorized/);
    expect((await rawPost(h.url, { authorization: `Bearer ${TOKEN}x` }, INIT)).status).toBe(401);
    expect((await rawPost(h.url, { authorization: TOKEN }, INIT)).status).toBe(401);
    const ok = new RawHttpSession(h.url, TOKEN);
    expect(await ok.initialize()).toMatchObject({ result: { protocolVersion: '2025-11-25', serverInfo: { name: 'switchboard-mcp-server' } } });
    await ok.close();
  });

  it('refuses foreign Host and Origin headers (DNS rebinding) before checking anything else', async () => {
    const h = await serve();
    const port = new URL(h.url).port;
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await rawPost(h.url, { ...auth, host: `evil.example:${port}` }, INIT)).status).toBe(403);
    expect((await rawPost(h.url, { host: `attacker.test:${port}` }, INIT)).status).toBe(403);
    expect((await rawPost(h.url, { ...auth, origin: 'http://evil.example' }, INIT)).status).toBe(403);
    expect((await rawPost(h.url, { ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` }, INIT)).status).toBe(200);
  });

  it('answers only its endpoint path', async () => {
    const h = await serve();
    const res = await fetch(new URL('/other', h.url), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: '{}' });
    expect(res.status).toBe(404);
  });

  it('the CLI refuses to start without a token, and --insecure-no-auth off loopback', async () => {
    const { home, cleanup } = await tempHome();
    try {
      const noToken = await runCli(['mcp-server', '--http', '127.0.0.1:0'], { home });
      expect(noToken.code).toBe(2);
      expect(noToken.stderr).toMatch(/no token: pass --token-file FILE or set SWITCHBOARD_MCP_TOKEN/);
      const wide = await runCli(['mcp-server', '--http', '0.0.0.0:0', '--insecure-no-auth'], { home });
      expect(wide.code).toBe(2);
      expect(wide.stderr).toMatch(/--insecure-no-auth is only allowed on a loopback address/);
      const short = await runCli(['mcp-server', '--http', '127.0.0.1:0'], { home, env: { SWITCHBOARD_MCP_TOKEN: 'short' } });
      expect(short.code).toBe(2);
      expect(short.stderr).toMatch(/too short/);
      const badListen = await runCli(['mcp-server', '--http', 'nowhere'], { home });
      expect(badListen.code).toBe(2);
      expect(stdoutIsEmpty(noToken.stdout, wide.stdout, short.stdout)).toBe(true);
    } finally {
      await cleanup();
    }
  });
});

function stdoutIsEmpty(...outs: string[]): boolean {
  return outs.every((o) => o === '');
}

describe('limits', () => {
  it('past --max-sessions closes the least recently used idle session (404 after); a deleted session frees its slot', async () => {
    const h = await serve({ maxSessions: 2 });
    const a = new RawHttpSession(h.url, TOKEN);
    const b = new RawHttpSession(h.url, TOKEN);
    await a.initialize();
    await b.initialize();
    expect(await a.request('ping', {})).toMatchObject({ result: {} });
    const c = new RawHttpSession(h.url, TOKEN);
    await c.initialize();
    expect(h.sessionCount).toBe(2);
    const gone = await b.post({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    expect(await a.request('ping', {})).toMatchObject({ result: {} });
    await a.close();
    expect(h.sessionCount).toBe(1);
    await new RawHttpSession(h.url, TOKEN).initialize();
    expect(await c.request('ping', {})).toMatchObject({ result: {} });
    expect(h.sessionCount).toBe(2);
  });

  it('never closes a session with a request in flight; only when all have one is a new client refused (503)', async () => {
    const h = await serve({ maxSessions: 1 });
    model.enqueue({ kind: 'responses', events: [rsp.created()], hang: true });
    const a = new RawHttpSession(h.url, TOKEN);
    await a.initialize();
    const running = a.post({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'long' } } });
    await model.waitForHang();
    const refused = await rawPost(h.url, { authorization: `Bearer ${TOKEN}` }, INIT);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: "Too many sessions: this caller's sessions on this server (--max-sessions 1 in all) all have a request in flight. Retry when one finishes." },
    });
    expect(await a.notify('notifications/cancelled', { requestId: 'long' })).toBe(202);
    expect(await a.responseOn(await running, 'long')).toMatchObject({ result: { isError: true, content: [{ text: 'Turn aborted.' }] } });
    await expect.poll(async () => (await rawPost(h.url, { authorization: `Bearer ${TOKEN}` }, INIT)).status).toBe(200);
    expect((await a.post({ jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(404);
  });

  it('closes a session left idle; its id then gets 404', async () => {
    const h = await serve({ idleTimeoutMs: 1000 });
    const s = new RawHttpSession(h.url, TOKEN);
    await s.initialize();
    expect(h.sessionCount).toBe(1);
    await expect.poll(() => h.sessionCount, { timeout: 15_000 }).toBe(0);
    const res = await s.post({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  /** Two sessions on a server that runs one turn at a time, whose model will hang on the next turn. */
  const twoSessionsOneTurn = async () => {
    const h = await serve({ maxTurns: 1 });
    model.enqueue({ kind: 'responses', events: [rsp.created()], hang: true });
    const a = new RawHttpSession(h.url, TOKEN);
    const b = new RawHttpSession(h.url, TOKEN);
    await a.initialize();
    await b.initialize();
    return { a, b };
  };

  it('bounds concurrent turns across sessions with an error result naming the limit', async () => {
    const { a, b } = await twoSessionsOneTurn();
    const running = a.post({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'long' } } });
    await model.waitForHang();
    const refused = await b.request('tools/call', { name: 'codex', arguments: { prompt: 'second' } });
    expect(refused.result).toEqual({
      content: [{ type: 'text', text: 'This switchboard mcp-server already runs 1 turn at once (its --max-turns limit); wait for a running call to finish, then retry.' }],
      isError: true,
    });
    expect(await a.notify('notifications/cancelled', { requestId: 'long' })).toBe(202);
    expect(await a.responseOn(await running, 'long')).toMatchObject({ result: { isError: true, content: [{ text: 'Turn aborted.' }] } });
    await a.close();
    await b.close();
  });

  it('interrupts the turn of a client that disconnected mid-call and did not resume within the grace (10 s)', async () => {
    const { a, b } = await twoSessionsOneTurn();
    const gone = new AbortController();
    const running = await a.post({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'long' } } }, { signal: gone.signal });
    expect(running.status).toBe(200);
    await model.waitForHang();
    // The grace is an in-process timer: fake timers pass it in steps instead of the test idling 10 s.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The client vanishes: its stream closes, no notifications/cancelled, no GET to resume.
    gone.abort();
    model.enqueue(responsesTurn({ text: 'second' }));
    const second = async () => ((await b.request('tools/call', { name: 'codex', arguments: { prompt: 'second' } })).result as { content: { text: string }[] }).content[0]!.text;
    let text: string;
    try {
      // The turn slot stays taken until the grace has passed and the abandoned call is cancelled.
      text = await second();
      expect(text).toContain('--max-turns');
      // The clock moves 1 s a try, up to the 30 s the test always allowed: a longer grace never fires.
      for (let advanced = 0; advanced < 30_000 && text !== 'second'; advanced += 1_000) {
        await vi.advanceTimersByTimeAsync(1_000);
        text = await second();
      }
    } finally {
      vi.useRealTimers();
    }
    // The cancelled turn may take a moment to free its slot (real time now; no fake timer is left to fire).
    if (text !== 'second') await expect.poll(second, { timeout: 5_000, interval: 100 }).toBe('second');
    await b.close();
  }, 60_000);

  it('refuses a request that reuses a running id without disturbing the original', async () => {
    const h = await serve();
    model.enqueue({ kind: 'responses', events: [rsp.created()], hang: true });
    const s = new RawHttpSession(h.url, TOKEN);
    await s.initialize();
    const running = s.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'long' } } });
    await model.waitForHang();
    expect(await s.request('ping', {}, 7)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'A request with this ID is still running.' } });
    await s.notify('notifications/cancelled', { requestId: 7 });
    expect(await s.responseOn(await running, 7)).toMatchObject({ result: { isError: true, content: [{ text: 'Turn aborted.' }] } });
    await s.close();
  });
});

describe('SSE resumption', () => {
  it('a client that loses the call stream resumes with Last-Event-ID, answers the approval and gets the result', async () => {
    const h = await serve();
    model.enqueue(responsesTurn({ calls: [{ id: 'c1', name: 'shell', args: { command: ['touch', 'resumed.txt'] } }] }), responsesTurn({ text: 'made it' }));
    const s = new RawHttpSession(h.url, TOKEN);
    await s.initialize();
    const drop = new AbortController();
    const res = await s.post({ jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'touch it', cwd: ip.work } } }, { signal: drop.signal });
    let lastId: string | undefined;
    for await (const ev of readSse(res)) {
      if (ev.id) lastId = ev.id;
      if ((ev.message?.params?.msg as { type?: string } | undefined)?.type === 'task_started') break;
    }
    drop.abort();
    expect(lastId).toBeDefined();

    // Like a real client, reconnect until the server has noticed the old stream is gone (409 until then).
    const reconnect = () => fetch(h.url, { method: 'GET', headers: { ...s.headers(), accept: 'text/event-stream', 'last-event-id': lastId! } });
    let resumed = await reconnect();
    for (let attempt = 0; resumed.status === 409 && attempt < 100; attempt++) {
      await resumed.text();
      await new Promise((r) => setTimeout(r, 50));
      resumed = await reconnect();
    }
    expect(resumed.status).toBe(200);
    const seen: SseEvent[] = [];
    let result: Record<string, unknown> | undefined;
    for await (const ev of readSse(resumed)) {
      seen.push(ev);
      const m = ev.message;
      if (m?.method === 'elicitation/create') await s.notifyResponse(m.id, { action: 'accept', content: { decision: 'approved' } });
      if (m && m.id === 'call' && 'result' in m) {
        result = m.result as Record<string, unknown>;
        break;
      }
    }
    const types = seen.map((e) => (e.message?.params?.msg as { type?: string } | undefined)?.type).filter(Boolean);
    expect(types[0]).toBe('user_message');
    expect(types).toContain('exec_approval_request');
    expect(types.at(-1)).toBe('task_complete');
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'made it' }] });
    expect(existsSync(path.join(ip.work, 'resumed.txt'))).toBe(true);
    await s.close();
  });
});
