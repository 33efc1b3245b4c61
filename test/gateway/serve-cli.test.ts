// `switchboard serve` as a command and a process: usage rules (--transparent, tokens), --help, stdio
// with protocol frames only on stdout and a clean exit at EOF, and the HTTP front door (bearer token,
// Host and Origin) shared with `mcp-server --http`, plus an upstream crash that leaves it serving.
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serverFlagsFor } from '../../src/cli/server-flags.js';
import { runCli, runCliProcess } from '../support/cli.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { MANAGER_FIXTURE } from '../mcp/manager-harness.js';
import { UPSTREAM_FIXTURE } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';
import { tempDir, removeTree } from '../support/temp.js';
import { waitFor } from '../support/wait.js';

const TOKEN = 'serve-cli-test-token-abcdefgh';

function serverToml(name: string, script: string, env: Record<string, string> = {}): string {
  const envLine = Object.keys(env).length ? `env = { ${Object.entries(env).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')} }\n` : '';
  return `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(script)}]\n${envLine}`;
}

async function makeHome(toml: string): Promise<{ home: string; work: string; env: NodeJS.ProcessEnv }> {
  const home = await tempDir('sb-serve-');
  const work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(path.join(home, 'config.toml'), toml);
  return { home, work, env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home } };
}

/** A POST with headers fetch will not let us set (Host); a fresh socket each time. */
function rawPost(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Whether jemalloc is loaded in process `pid`. */
async function mapsJemalloc(pid: number): Promise<boolean> {
  return (await readFile(`/proc/${pid}/maps`, 'utf8')).includes('libjemalloc');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } };

describe('switchboard serve: usage', () => {
  let home: string;
  beforeAll(async () => {
    home = await tempDir('sb-serve-usage-');
  });
  afterAll(async () => removeTree(home));

  it('refuses --transparent without exactly one enabled server, naming them', async () => {
    await writeFile(path.join(home, 'config.toml'), '');
    const none = await runCli(['serve', '--transparent'], { home });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--transparent needs exactly one enabled MCP server, but 0 are enabled \(none\)/);
    await writeFile(path.join(home, 'config.toml'), `${serverToml('a', UPSTREAM_FIXTURE)}${serverToml('b', UPSTREAM_FIXTURE)}[mcp_servers.c]\ncommand = "x"\nenabled = false\n`);
    const two = await runCli(['serve', '--transparent'], { home });
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/but 2 are enabled \(a, b\); disable the others \(enabled = false\) or drop --transparent/);
  });

  it('refuses HTTP without a token unless on loopback with --insecure-no-auth', async () => {
    const r = await runCli(['serve', '--http', '127.0.0.1:0'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no token: pass --token-file FILE or set SWITCHBOARD_MCP_TOKEN/);
    const wide = await runCli(['serve', '--http', '0.0.0.0:0', '--insecure-no-auth'], { home });
    expect(wide.code).toBe(2);
    expect(wide.stderr).toMatch(/only allowed on a loopback address/);
  });

  it('refuses a --release-memory-after that is not a whole number of seconds', async () => {
    const r = await runCli(['serve', '--http', '127.0.0.1:0', '--insecure-no-auth', '--release-memory-after', '-5'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--release-memory-after must be 0 or a positive integer, got "-5"/);
  });

  it('--help explains what is served, what is relayed, transparent mode and both transports', async () => {
    const r = await runCli(['serve', '--help'], { home });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: switchboard serve/);
    for (const part of ['What it serves:', 'Relayed both ways', '--transparent:', 'Transports:', 'Security (HTTP)', 'Examples:\n  claude mcp add switchboard -- switchboard serve']) {
      expect(r.stdout).toContain(part);
    }
  });
});

describe('switchboard serve over stdio (process)', () => {
  it('writes only protocol frames to stdout and exits 0 with its upstreams closed when stdin ends', async () => {
    requireBuild();
    const made = await makeHome('');
    const { home, work, env } = made;
    const pidFile = path.join(home, 'upstream.pid');
    await writeFile(path.join(home, 'config.toml'), serverToml('up', UPSTREAM_FIXTURE, { GW_NAME: 'up', GW_PID_FILE: pidFile }));
    try {
      const child = spawn(process.execPath, [BIN, 'serve'], { env, cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const frames = () => out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
      const answer = (id: number) => waitFor(() => frames().find((f) => f.id === id), `the answer to request ${id}`, 30_000);
      const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
      send(INIT);
      expect((await answer(1))?.result).toMatchObject({ serverInfo: { name: 'switchboard-gateway' }, capabilities: { tools: { listChanged: true }, logging: {} } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mcp__up__echo', arguments: { text: 'over stdio' } } });
      expect((await answer(2))?.result).toEqual({ content: [{ type: 'text', text: 'up:over stdio' }] });
      const upstreamPid = Number(await readFile(pidFile, 'utf8'));
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(alive(upstreamPid)).toBe(false);
      // Every line parsed as JSON above; each one is a JSON-RPC 2.0 frame.
      expect(frames().every((f) => (f as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
    } finally {
      await removeTree(home);
    }
  }, 60_000);
});

describe('switchboard serve: the allocator (process)', () => {
  // Only where jemalloc is installed can the system allocator be told from the default.
  it('runs on the system allocator when SWITCHBOARD_ALLOCATOR=system', { tags: ['jemalloc'], timeout: 60_000 }, async () => {
    requireBuild();
    const { home, work, env } = await makeHome('');
    try {
      const serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], { env: { ...env, SWITCHBOARD_ALLOCATOR: 'system' }, cwd: work });
      try {
        expect(await mapsJemalloc(serve.child.pid!)).toBe(false);
      } finally {
        await serve.stop();
      }
    } finally {
      await removeTree(home);
    }
  });

  it('refuses a value of SWITCHBOARD_ALLOCATOR it does not know', async () => {
    requireBuild();
    const { home, work, env } = await makeHome('');
    try {
      const bad = await runCliProcess(['serve', '--http', '127.0.0.1:0', '--insecure-no-auth'], { home, env: { ...env, SWITCHBOARD_ALLOCATOR: 'mimalloc' }, cwd: work });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe('switchboard: SWITCHBOARD_ALLOCATOR must be auto, jemalloc, system or unset, not "mimalloc"\n');
    } finally {
      await removeTree(home);
    }
  }, 60_000);
});

describe('switchboard serve --http (process)', () => {
  let serve: ServeProcess;
  let home: string;
  beforeAll(async () => {
    requireBuild();
    const made = await makeHome(
      // up asks for the preload by name: the gateway's own must not be there to pass on.
      `${serverToml('steady', MANAGER_FIXTURE, { MGR_NAME: 'steady' })}${serverToml('crashy', MANAGER_FIXTURE, { MGR_NAME: 'crashy' })}${serverToml('up', UPSTREAM_FIXTURE, { GW_NAME: 'up' })}env_vars = ["LD_PRELOAD", "MALLOC_CONF", "SWITCHBOARD_PRELOADED_ALLOCATOR"]\n`,
    );
    home = made.home;
    await writeFile(path.join(home, 'token'), `${TOKEN}\n`, { mode: 0o600 });
    // The heap is given back after 5 s without a request here (default 60 s), so that the last test sees it.
    serve = await spawnServe(['--http', '127.0.0.1:0', '--token-file', path.join(home, 'token'), '--release-memory-after', '5'], {
      env: { ...made.env, SWITCHBOARD_LOG_LEVEL: 'debug' },
      cwd: made.work,
    });
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it('prints its URL and requires the bearer token', async () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const none = await rawPost(serve.url, {}, INIT);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="switchboard"');
    expect((await rawPost(serve.url, { authorization: `Bearer ${TOKEN}x` }, INIT)).status).toBe(401);
    const ok = await rawPost(serve.url, { authorization: `Bearer ${TOKEN}` }, INIT);
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toBeTruthy();
  });

  it("runs as the process it was started as, re-executed with a server's Node settings", async () => {
    // process.execve keeps the pid: the child spawned is the server listening, its Node options now hold the flags
    // (on this machine's cores: the young generation's, and V8's workers where it has fewer cores than Node's four).
    const cmdline = (await readFile(`/proc/${serve.child.pid}/cmdline`, 'utf8')).split('\0');
    const flags = serverFlagsFor();
    expect(cmdline.slice(0, flags.length + 2)).toEqual([process.execPath, ...flags, BIN]);
    expect(cmdline).toContain('serve');
  });

  it('runs on jemalloc where the system has it, and the servers it starts do not inherit the preload', { tags: ['jemalloc'] }, async () => {
    const pid = serve.child.pid!;
    expect(await mapsJemalloc(pid)).toBe(true);
    const log = path.join(home, 'log', 'switchboard.log');
    const line = await waitFor(async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').find((l) => l.includes('http listening')), 'the listening line in the debug log', 10_000);
    expect(line).toMatch(/"allocator":"jemalloc \(\/\S+libjemalloc\.so\.2\)"/);
    // A call, so that its server is running (the servers start with the first session).
    const client = new Client({ name: 'allocator-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    try {
      expect(await client.callTool({ name: 'mcp__up__echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'up:hi' }] });
    } finally {
      await client.close();
    }
    // jemalloc returns memory from threads of its own (MALLOC_CONF background_thread:true).
    const threads = await Promise.all((await readdir(`/proc/${pid}/task`)).map((t) => readFile(`/proc/${pid}/task/${t}/comm`, 'utf8')));
    expect(threads.map((t) => t.trim())).toContain('jemalloc_bg_thd');
    const servers = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
    expect(servers.length).toBeGreaterThan(0);
    for (const server of servers) {
      expect(await mapsJemalloc(server)).toBe(false);
      expect((await readFile(`/proc/${server}/environ`, 'utf8')).split('\0').filter((v) => /^(LD_PRELOAD|MALLOC_CONF|SWITCHBOARD_PRELOADED_ALLOCATOR)=/.test(v))).toEqual([]);
    }
  });

  it('refuses foreign Host and Origin headers (DNS rebinding) with 403', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const host = await rawPost(serve.url, { ...auth, host: 'evil.example:80' }, INIT);
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toMatch(/^Forbidden/);
    expect((await rawPost(serve.url, { ...auth, origin: 'http://evil.example' }, INIT)).status).toBe(403);
    expect((await rawPost(serve.url, { ...auth, host: `localhost:${new URL(serve.url).port}` }, INIT)).status).toBe(200);
  });

  it('primes resumable SSE streams by the negotiated protocol version, whatever an older header says', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const init = await rawPost(serve.url, auth, INIT);
    const session = String(init.headers['mcp-session-id']);
    const headers = { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect((await rawPost(serve.url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    // The conformance suite's SSE probe: a 2025-03-26 header inside a 2025-11-25 session. A call that
    // logs before its result streams (a quick answer alone would come back as JSON).
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mcp__up__chatter', arguments: { steps: 1 } } };
    const res = await rawPost(serve.url, { ...headers, 'mcp-protocol-version': '2025-03-26' }, call);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    const first = res.body.split('\n\n')[0]!;
    expect(first).toMatch(/^id: \S+/m);
    expect(first).toMatch(/^retry: 1000$/m);
    expect(first).toMatch(/^data: ?$/m);
    expect(res.body).toContain('"id":2');
    expect(res.body).toContain(':chattered 1'); // the call's result, as the probe saw the echo's before
  });

  it('answers a quick call of a 2025 session as one JSON body', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const init = await rawPost(serve.url, auth, INIT);
    expect(init.headers['content-type']).toBe('application/json');
    const headers = { ...auth, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
    await rawPost(serve.url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'mcp__steady__echo', arguments: { text: 'whole' } } });
    await rawPost(serve.url, headers, call(3)); // starts the upstream, which may take longer than a quick answer's wait
    const res = await rawPost(serve.url, headers, call(4));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'steady:echo:whole' }] } });
  });

  it("relays a call's log messages and progress on that call's own SSE stream, before its result", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const init = await rawPost(serve.url, auth, INIT);
    const headers = { ...auth, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
    await rawPost(serve.url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'mcp__up__chatter', arguments: { steps: 2 }, _meta: { progressToken: 'p-7' } } };
    const res = await rawPost(serve.url, headers, call);
    const messages = res.body
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l.length > 'data: '.length)
      .map((l) => JSON.parse(l.slice('data: '.length)) as { id?: number; method?: string; params?: Record<string, unknown> });
    expect(messages.map((m) => m.method ?? `result ${m.id}`)).toEqual([
      'notifications/message',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'notifications/message',
      'notifications/progress',
      'result 7',
    ]);
    expect(messages[2]?.params).toEqual({ progressToken: 'p-7', progress: 1, total: 2, message: 'step 1' });
    expect(messages[0]?.params).toEqual({ level: 'info', logger: 'up/chatter', data: 'step 1' });
  });

  it('keeps serving when an upstream crashes: its tools leave, the others still answer', async () => {
    const client = new Client({ name: 'crash-test', version: '1.0.0' });
    let changed = 0;
    let onChange = () => {};
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed += 1;
      onChange();
    });
    const changeAfter = (count: number) =>
      new Promise<void>((resolve) => {
        onChange = () => changed > count && resolve();
        onChange();
      });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await names()).toEqual(expect.arrayContaining(['mcp__steady__echo', 'mcp__crashy__echo']));
      const announced = changeAfter(changed);
      await client.callTool({ name: 'mcp__crashy__crash', arguments: {} }).catch(() => undefined);
      await announced;
      expect(await client.callTool({ name: 'mcp__steady__echo', arguments: { text: 'alive' } })).toEqual({ content: [{ type: 'text', text: 'steady:echo:alive' }] });
      expect(serve.child.exitCode).toBeNull();
    } finally {
      await client.close();
    }
  }, 60_000);

  // Found by the HTTP fuzzer: the SDK transport routes a response by id alone, so a second POST
  // reusing a running id took over the first one's stream, and the first client waited forever.
  it('refuses a request reusing the id of one still running in the session (-32600) instead of re-routing its stream', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const init = await rawPost(serve.url, auth, INIT);
    const headers = { ...auth, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
    await rawPost(serve.url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const first = new AbortController();
    // The response headers come once the request has reached the server.
    const running = await fetch(serve.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'mcp__up__wait_for_cancel', arguments: {} } }),
      signal: first.signal,
    });
    try {
      expect(running.status).toBe(200);
      const reused = await rawPost(serve.url, headers, { jsonrpc: '2.0', id: 9, method: 'ping' });
      expect(reused.status).toBe(200);
      expect(JSON.parse(reused.body)).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32600, message: expect.stringMatching(/still running/) } });
      const twice = await rawPost(serve.url, headers, [{ jsonrpc: '2.0', id: 10, method: 'ping' }, { jsonrpc: '2.0', id: 10, method: 'ping' }]);
      expect(JSON.parse(twice.body)).toMatchObject({ id: 10, error: { code: -32600 } });
      // Cancelling frees the id (no response follows a cancellation); so does an answer.
      expect((await rawPost(serve.url, headers, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } })).status).toBe(202);
      expect((await rawPost(serve.url, headers, { jsonrpc: '2.0', id: 9, method: 'ping' })).body).toContain('"result":{}');
      expect((await rawPost(serve.url, headers, { jsonrpc: '2.0', id: 9, method: 'ping' })).body).toContain('"result":{}');
    } finally {
      first.abort();
    }
  }, 60_000);

  // Last: the requests above were its load. The embedded gateway (startHttpGateway) does not do this.
  it('gives its heap back once no request has come for --release-memory-after (the debug log says so)', async () => {
    const log = path.join(home, 'log', 'switchboard.log');
    const line = await waitFor(async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').find((l) => l.includes('idle: heap collected and shrunk')), 'the idle collection in the log', 20_000);
    expect(line).toMatch(/rssBeforeMb/);
  }, 30_000);
});
