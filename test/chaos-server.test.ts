// Each chaos-server mode really misbehaves as documented: driven with the SDK v2 Client where the SDK
// can express the check, and with raw stdio / HTTP where it cannot. Every process is tagged with a
// per-test marker and killed (and counted) afterwards.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  INITIALIZE,
  RawStdioPeer,
  findProcessesByMarker,
  isAlive,
  killProcessesByMarker,
  spawnUrlServer,
  waitForExit,
  waitUntil,
} from './helpers/fixture-processes.js';

const CHAOS = fileURLToPath(new URL('./fixtures/chaos-server.ts', import.meta.url));
const NODE = process.execPath;
let marker = '';
const clients: Client[] = [];

beforeEach(() => {
  marker = `chaos-test-${randomUUID()}`;
});

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await killProcessesByMarker(marker);
});

function args(...extra: string[]): string[] {
  return [CHAOS, '--marker', marker, ...extra];
}

async function stdioClient(...extra: string[]): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: NODE, args: args(...extra), stderr: 'ignore' });
  const client = new Client({ name: 'chaos-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

function raw(...extra: string[]): RawStdioPeer {
  return new RawStdioPeer(NODE, args(...extra));
}

const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const textOf = (result: { content?: unknown }) => ((result.content as Array<{ text?: string }>)[0]?.text ?? '');

interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw POST on a fresh connection (the SDK client would hide status codes and SSE framing). */
function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    let settle = (error: Error) => reject(error);
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data });
      settle = done; // a stream cut after the headers still yields what arrived
      res.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
      res.once('end', done);
      res.once('error', done);
    });
    req.once('error', (error) => settle(error));
    req.end(JSON.stringify(body));
  });
}

async function httpSession(url: string): Promise<Record<string, string>> {
  const init = await post(url, INITIALIZE);
  expect(init.status).toBe(200);
  const headers = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
  return headers;
}

describe('chaos server: healthy', () => {
  it('serves echo, add and slow (with progress) over stdio, and exits when stdin closes', async () => {
    const { client, transport } = await stdioClient();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'slow']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    const progress: number[] = [];
    // 200 ms between notifications: the SDK client defers notification handlers by a microtask but handles a
    // response at once, so a progress notification read in the same chunk as the response would be dropped.
    const slow = await client.callTool({ name: 'slow', arguments: { ms: 800, steps: 4 } }, { onprogress: (p) => progress.push(p.progress) });
    expect(textOf(slow)).toBe('slow done');
    expect(progress).toEqual([0, 1, 2, 3]);
    const pid = transport.pid;
    await client.close();
    await waitUntil('the server to exit', async () => ((await findProcessesByMarker(marker)).includes(pid ?? -1) ? undefined : true));
  });

  it('serves the same tools over Streamable HTTP', async () => {
    const { url } = await spawnUrlServer(NODE, args('--http'));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'chaos-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'add', 'slow']);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }))).toBe('42');
  });

  it('rejects an unknown mode and a mode for the other transport with exit code 2', async () => {
    for (const extra of [['--mode', 'no-such-mode'], ['--mode', 'http-500']]) {
      const peer = raw(...extra);
      expect(await waitForExit(peer.child)).toEqual({ code: 2, signal: null });
    }
  });
});

describe('chaos server: startup and shutdown faults (stdio)', () => {
  it('slow-start: answers initialize only after the delay', async () => {
    const peer = raw('--mode', 'slow-start', '--start-delay', '1.5');
    peer.send(INITIALIZE);
    await waitUntil('the slow-start announcement', () => (peer.stderrTail.includes('chaos-server: slow start, inert for 1.5 s') ? true : undefined));
    const announced = Date.now();
    await peer.waitForMessage((m) => m.id === 1);
    expect(Date.now() - announced).toBeGreaterThanOrEqual(1300);
  });

  it('no-initialize: never answers initialize but stays alive', async () => {
    const peer = raw('--mode', 'no-initialize');
    peer.send(INITIALIZE);
    await sleep(1000);
    expect(peer.messages()).toEqual([]);
    expect(isAlive(peer.child)).toBe(true);
  });

  it('exit-on-initialize: exits with the chosen code before answering', async () => {
    const peer = raw('--mode', 'exit-on-initialize', '--exit-code', '3');
    peer.send(INITIALIZE);
    expect(await waitForExit(peer.child)).toEqual({ code: 3, signal: null });
    expect(peer.stdout).toBe('');
  });

  it('exit-mid-call: sends one progress notification, then the process dies with the call open', async () => {
    const { client } = await stdioClient('--mode', 'exit-mid-call');
    const progress: number[] = [];
    await expect(client.callTool({ name: 'slow', arguments: {} }, { onprogress: (p) => progress.push(p.progress) })).rejects.toThrow();
    expect(progress).toEqual([1]);
    await waitUntil('the server to exit', async () => ((await findProcessesByMarker(marker)).length === 0 ? true : undefined));
  });

  it('exit-after-calls: answers N calls, then exits', async () => {
    const peer = raw('--mode', 'exit-after-calls', '--calls', '2', '--exit-code', '4');
    await peer.initialize();
    peer.send(call(1, 'echo', { text: 'one' }));
    await peer.waitForMessage((m) => m.id === 1);
    expect(isAlive(peer.child)).toBe(true);
    peer.send(call(2, 'echo', { text: 'two' }));
    expect(await waitForExit(peer.child)).toEqual({ code: 4, signal: null });
    expect(peer.messages().find((m) => m.id === 2)).toMatchObject({ result: { content: [{ text: 'two' }] } });
  });

  it('grandchildren: spawns marked grandchildren that survive SIGTERM', async () => {
    const peer = raw('--mode', 'grandchildren', '--grandchildren', '3');
    await peer.initialize();
    const grandchildren = await waitUntil('three grandchildren', async () => {
      const pids = (await findProcessesByMarker(marker)).filter((pid) => pid !== peer.child.pid);
      return pids.length === 3 ? pids : undefined;
    });
    for (const pid of grandchildren) process.kill(pid, 'SIGTERM');
    await sleep(500);
    expect((await findProcessesByMarker(marker)).filter((pid) => grandchildren.includes(pid))).toHaveLength(3);
    expect(await killProcessesByMarker(marker)).toBe(4); // the server and its three grandchildren
  });
});

describe('chaos server: stdout and stderr faults (stdio)', () => {
  it('noise-stdout: non-JSON lines at start and before every message', async () => {
    const peer = raw('--mode', 'noise-stdout', '--noise-lines', '2');
    await peer.initialize();
    const lines = peer.lines();
    expect(lines.slice(0, 2)).toEqual(['chaos-server: this line is not JSON-RPC (1)', 'chaos-server: this line is not JSON-RPC (2)']);
    const responseAt = lines.findIndex((l) => l.startsWith('{'));
    expect(lines.slice(responseAt - 2, responseAt).every((l) => l.startsWith('chaos-server: this line is not JSON-RPC'))).toBe(true);
    expect(lines.filter((l) => !l.startsWith('{')).length).toBe(4);
  });

  it('half-frame: writes half a response frame without a newline, then goes silent', async () => {
    const peer = raw('--mode', 'half-frame');
    await peer.initialize();
    const before = peer.stdout.length;
    peer.send(call(7, 'echo', { text: 'x'.repeat(200) }));
    await waitUntil('a partial frame', () => (peer.stdout.length > before ? true : undefined));
    await sleep(500);
    const tail = peer.stdout.slice(before);
    expect(tail.startsWith('{')).toBe(true);
    expect(tail.includes('\n')).toBe(false);
    expect(() => JSON.parse(tail)).toThrow();
    peer.send(call(8, 'echo', { text: 'again' }));
    await sleep(300);
    expect(peer.stdout.slice(before)).toBe(tail);
    expect(isAlive(peer.child)).toBe(true);
  });

  it('flood-stderr: writes MiBs to stderr and stalls when nobody drains it', async () => {
    const drained = raw('--mode', 'flood-stderr', '--stderr-mb', '2');
    await drained.initialize();
    await waitUntil('2 MiB of stderr', () => (drained.stderrBytes >= 2 * 1024 * 1024 ? true : undefined));
    const stalled = new RawStdioPeer(NODE, args('--mode', 'flood-stderr', '--stderr-mb', '2'), { drainStderr: false });
    stalled.send(INITIALIZE);
    await sleep(1500);
    expect(stalled.messages()).toEqual([]);
    stalled.child.stderr.resume(); // drain now: the server unblocks and answers
    await stalled.waitForMessage((m) => m.id === 1, 15_000);
  });

  it('huge-result: answers a call with one 50 MiB frame', async () => {
    const peer = raw('--mode', 'huge-result');
    await peer.initialize();
    peer.send(call(5, 'echo', { text: 'small' }));
    const response = await peer.waitForMessage((m) => m.id === 5, 30_000);
    expect(textOf(response.result as { content: unknown }).length).toBe(50 * 1024 * 1024);
  });
});

describe('chaos server: protocol faults (stdio)', () => {
  it('out-of-order: answers two concurrent calls in reverse order; a lone call still completes', async () => {
    const peer = raw('--mode', 'out-of-order');
    await peer.initialize();
    peer.send(call(10, 'echo', { text: 'first' }));
    peer.send(call(11, 'echo', { text: 'second' }));
    await peer.waitForMessage((m) => m.id === 10);
    const ids = peer.messages().map((m) => m.id).filter((id) => id === 10 || id === 11);
    expect(ids).toEqual([11, 10]);
    peer.send(call(12, 'echo', { text: 'alone' }));
    await peer.waitForMessage((m) => m.id === 12, 5000);
  });

  it('unknown-ids: progress and cancelled for ids never issued, and a response to an id never sent', async () => {
    const peer = raw('--mode', 'unknown-ids');
    await peer.initialize();
    peer.send(call(20, 'echo', { text: 'x' }));
    await peer.waitForMessage((m) => m.id === 20);
    const messages = peer.messages();
    expect(messages).toContainEqual(expect.objectContaining({ method: 'notifications/progress', params: expect.objectContaining({ progressToken: 'chaos-unknown-token-1' }) }));
    expect(messages).toContainEqual(expect.objectContaining({ method: 'notifications/cancelled', params: expect.objectContaining({ requestId: 'chaos-unknown-request-1' }) }));
    expect(messages).toContainEqual({ jsonrpc: '2.0', id: 'chaos-never-requested', result: {} });
  });

  it('invalid-schemas, duplicate-tools, many-tools: tools/list over 101 pages of 100', async () => {
    const peer = raw('--mode', 'invalid-schemas,duplicate-tools,many-tools');
    await peer.initialize();
    const tools: Array<{ name: string; inputSchema?: unknown }> = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const id = `list-${pages}`;
      peer.send({ jsonrpc: '2.0', id, method: 'tools/list', params: cursor === undefined ? {} : { cursor } });
      const page = (await peer.waitForMessage((m) => m.id === id)).result as { tools: typeof tools; nextCursor?: string };
      tools.push(...page.tools);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(101); // 3 healthy + 6 invalid + 4 duplicates + 10,000 bulk = 10,013 tools
    expect(tools).toHaveLength(10_013);
    const names = tools.map((t) => t.name);
    expect(names.filter((n) => n === 'echo')).toHaveLength(2);
    expect(names.filter((n) => n === 'dup')).toHaveLength(3);
    expect(names.filter((n) => n.startsWith('bulk_'))).toHaveLength(10_000);
    expect(names.at(-1)).toBe('bulk_10000');
    const schemas = new Map(tools.map((t) => [t.name, t.inputSchema]));
    expect(schemas.get('schema_not_object')).toEqual({ type: 'string' });
    expect(schemas.has('schema_missing') && schemas.get('schema_missing') === undefined).toBe(true);
    expect(schemas.get('schema_bad_properties')).toEqual({ type: 'object', properties: 'nope' });
    expect(schemas.get('schema_not_a_schema')).toBe(42);
    peer.send(call('bulk', 'bulk_00042'));
    expect(await peer.waitForMessage((m) => m.id === 'bulk')).toMatchObject({ result: { content: [{ text: 'called bulk_00042' }] } });
  });
});

describe('chaos server: HTTP faults', () => {
  it('slow-start holds HTTP requests until the delay; exit-after-calls exits once the N-th response is delivered', async () => {
    const slow = await spawnUrlServer(NODE, args('--http', '--mode', 'slow-start', '--start-delay', '1.5'));
    const listening = Date.now(); // the delay began just before the listener was bound
    expect((await post(slow.url, INITIALIZE)).status).toBe(200);
    expect(Date.now() - listening).toBeGreaterThanOrEqual(1300);
    const { url, child } = await spawnUrlServer(NODE, args('--http', '--mode', 'exit-after-calls', '--calls', '2', '--exit-code', '5'));
    const headers = await httpSession(url);
    expect((await post(url, call(1, 'echo', { text: 'one' }), headers)).body).toContain('"text":"one"');
    expect(isAlive(child)).toBe(true);
    expect((await post(url, call(2, 'echo', { text: 'two' }), headers)).body).toContain('"text":"two"');
    expect(await waitForExit(child)).toEqual({ code: 5, signal: null });
  });

  it('http-expire-session: 404 with the SDK body after N requests, while calls in flight complete', async () => {
    const { url } = await spawnUrlServer(NODE, args('--http', '--mode', 'http-expire-session', '--expire-every', '3'));
    const headers = await httpSession(url); // POST 1 of the session: notifications/initialized
    const inFlight = post(url, call(2, 'slow', { ms: 1500, steps: 1 }), headers); // POST 2
    await sleep(100);
    expect((await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, headers)).status).toBe(200); // POST 3
    const expired = await post(url, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }, headers);
    expect(expired.status).toBe(404);
    expect(expired.body).toBe('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
    expect((await inFlight).body).toContain('slow done');
    expect((await post(url, { jsonrpc: '2.0', id: 5, method: 'ping' }, headers)).status).toBe(404);
    await httpSession(url); // a new session works
  });

  it('http-401 and http-500: fail POSTs at the given rate, reproducibly for a seed', async () => {
    const replies = async (...extra: string[]) => {
      const { url, child } = await spawnUrlServer(NODE, args('--http', ...extra));
      const seen: HttpReply[] = [];
      for (let i = 0; i < 20; i++) seen.push(await post(url, INITIALIZE));
      child.kill('SIGKILL');
      return seen;
    };
    const flags = ['--mode', 'http-401,http-500', '--rate-401', '0.3', '--rate-500', '0.3', '--seed', '7'];
    const first = await replies(...flags);
    const statuses = first.map((r) => r.status);
    expect(new Set(statuses)).toEqual(new Set([200, 401, 500]));
    for (const reply of first.filter((r) => r.status === 401)) expect(reply.headers['www-authenticate']).toMatch(/^Bearer /);
    expect((await replies(...flags)).map((r) => r.status)).toEqual(statuses);
  });

  it('http-drop-sse: cuts the POST stream after the priming event; the response replays on resume', async () => {
    const { url } = await spawnUrlServer(NODE, args('--http', '--mode', 'http-drop-sse', '--rate-drop', '1'));
    const init = await post(url, INITIALIZE);
    expect(init.status).toBe(200);
    const primingId = /^id: (\S+)$/m.exec(init.body)?.[1];
    expect(primingId).toBeDefined();
    expect(init.body).not.toContain('"result"');
    const replay = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(url, {
        method: 'GET',
        agent: false,
        headers: { accept: 'text/event-stream', 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25', 'last-event-id': String(primingId) },
      }, (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          data += chunk;
          if (data.includes('"result"')) {
            res.destroy();
            resolve(data);
          }
        });
      });
      req.once('error', reject);
      req.end();
    });
    expect(replay).toContain('"serverInfo":{"name":"chaos-server"');
  });
});

describe('chaos server: environment', () => {
  it('takes flags from CHAOS_* variables', async () => {
    const peer = new RawStdioPeer(NODE, [CHAOS, '--marker', marker], { env: { ...process.env, CHAOS_MODE: 'duplicate-tools' } });
    await peer.initialize();
    peer.send({ jsonrpc: '2.0', id: 50, method: 'tools/list', params: {} });
    const list = await peer.waitForMessage((m) => m.id === 50);
    expect((list.result as { tools: Array<{ name: string }> }).tools.filter((t) => t.name === 'dup')).toHaveLength(3);
  });
});
