// The exec-server as a separate process on loopback: startup line, auth refusals, bad input answered
// with JSON-RPC errors, limits, and process hygiene when connections, clients or the server go away.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ExecutorClient, RpcErrorCode, type OutputChunk } from '../../src/exec-server/index.js';
import { FIXTURES, runCli, startExecServerProcess, type ExecServerProcess } from '../support/exec-processes.js';
import { childrenOf, groupMembers, isAlive, killQuietly } from '../support/process-tree.js';
import { waitFor } from '../support/wait.js';

const TOKEN = randomBytes(24).toString('base64url');
let dir: string;
let tokenFile: string;
let server: ExecServerProcess;
const leftovers: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-exec-'));
  tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  server = await startExecServerProcess(['--token-file', tokenFile, '--max-processes', '3', '--max-message-bytes', '262144']);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  killQuietly(leftovers);
  rmSync(dir, { recursive: true, force: true });
});

/** A raw authenticated WebSocket that collects every frame, for protocol-level checks. */
async function rawConnection(url: string, token: string) {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  const frames: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d: Buffer) => {
    frames.push(JSON.parse(d.toString()) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const next = async (match: (f: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    for (;;) {
      const i = frames.findIndex(match);
      if (i !== -1) return frames.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { ws, next, reply: (id: number | null) => next((f) => f.id === id && ('result' in f || 'error' in f)) };
}

function errorCode(frame: Record<string, unknown>): number | undefined {
  return (frame.error as { code?: number } | undefined)?.code;
}

describe('exec-server process', { timeout: 60_000 }, () => {
  it('prints `listening on ws://HOST:PORT` as its first stdout line', () => {
    expect(server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses to start without a token, and --insecure-no-auth off loopback', async () => {
    const env = { ...process.env, SWITCHBOARD_EXEC_TOKEN: '' };
    const none = await runCli(['exec-server'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no token configured');
    expect(none.stdout).toBe('');
    const open = await runCli(['exec-server', '--listen', '0.0.0.0:0', '--insecure-no-auth'], env);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('only allowed on a loopback address');
  });

  it('rejects a wrong or missing token at the upgrade, before any process can start', async () => {
    for (const token of ['wrong-token', null, `${TOKEN}x`]) {
      const err = await ExecutorClient.connect(server.url, token).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'exec_auth_failed' });
    }
    // A raw client that tries to talk anyway never gets a WebSocket.
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(server.url, { headers: { authorization: 'Bearer nope' } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => {});
    });
    expect(status).toBe(401);
    expect(childrenOf(server.pid)).toEqual([]);
  });

  it('answers malformed frames, unknown methods and ids, and oversized messages with JSON-RPC errors', async () => {
    const a = await rawConnection(server.url, TOKEN);
    const b = await rawConnection(server.url, TOKEN);
    try {
      a.ws.send('{not json');
      expect(errorCode(await a.reply(null))).toBe(RpcErrorCode.parseError);
      a.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1 }));
      expect(errorCode(await a.reply(1))).toBe(RpcErrorCode.invalidRequest);
      a.ws.send(Buffer.from('binary'), { binary: true });
      expect(errorCode(await a.reply(null))).toBe(RpcErrorCode.invalidRequest);
      a.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'process/teleport', params: {} }));
      expect(errorCode(await a.reply(2))).toBe(RpcErrorCode.methodNotFound);
      a.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'process/start', params: { processId: 'x', argv: [] } }));
      expect(errorCode(await a.reply(3))).toBe(RpcErrorCode.invalidParams);
      a.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'process/write', params: { processId: 'ghost', data: '' } }));
      const unknown = await a.reply(4);
      expect(errorCode(unknown)).toBe(RpcErrorCode.unknownProcess);
      expect(JSON.stringify(unknown)).toContain('unknown process id');
      a.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'process/write', params: { processId: 'ghost', data: 'x'.repeat(300_000) } }));
      const big = await a.reply(null);
      expect(errorCode(big)).toBe(RpcErrorCode.messageTooLarge);
      expect(JSON.stringify(big)).toContain('exceeds the limit of 262144 bytes');
      a.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'process/start', params: { processId: 'x', argv: ['/definitely/not/here'], cwd: '/' } }));
      expect(errorCode(await a.reply(6))).toBe(RpcErrorCode.spawnFailed);
      a.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'process/start', params: { processId: 'y', argv: ['true'], cwd: '/no/such/dir' } }));
      expect(JSON.stringify(await a.reply(7))).toContain('does not exist on the executor');

      // Past twice the limit the frame is not even read: that connection closes with 1009, alone.
      const c = await rawConnection(server.url, TOKEN);
      const code = new Promise<number>((resolve) => c.ws.once('close', (closeCode) => resolve(closeCode)));
      c.ws.send('x'.repeat(600_000));
      expect(await code).toBe(1009);

      // Both other connections still work after all that.
      for (const conn of [a, b]) {
        conn.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'process/start', params: { processId: 'ok', argv: ['sh', '-c', 'echo fine'], cwd: '/' } }));
        expect(await conn.reply(10)).toHaveProperty('result.pid');
        const exited = await conn.next((f) => f.method === 'process/exited');
        expect(exited.params).toMatchObject({ processId: 'ok', code: 0 });
        // Writing after the exit is an error, not a crash.
        conn.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'process/write', params: { processId: 'ok', data: 'aGk=' } }));
        expect(errorCode(await conn.reply(11))).toBe(RpcErrorCode.processExited);
      }
    } finally {
      a.ws.terminate();
      b.ws.terminate();
    }
  });

  it('limits processes per connection with a clear error', async () => {
    const client = await ExecutorClient.connect(server.url, TOKEN);
    try {
      const procs = await Promise.all([1, 2, 3].map(() => client.start(['sleep', '300'], { cwd: '/' })));
      leftovers.push(...procs.map((p) => p.pid));
      const err = await client.start(['sleep', '300'], { cwd: '/' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'exec_limitExceeded' });
      expect(String((err as Error).message)).toContain('too many processes on this connection (limit 3)');
      await procs[0]!.kill();
      expect(await procs[0]!.exited).toMatchObject({ type: 'exited', signal: 'SIGTERM' });
      const again = await client.start(['true'], { cwd: '/' });
      expect(await again.exited).toEqual({ type: 'exited', code: 0, signal: null });
    } finally {
      await client.close();
    }
  });

  it('streams large output and stdin intact and in order', async () => {
    const client = await ExecutorClient.connect(server.url, TOKEN);
    try {
      const chunks: Buffer[] = [];
      const echo = await client.start(['cat'], { cwd: '/', onOutput: (c: OutputChunk) => chunks.push(c.data) });
      const payload = randomBytes(3 * 1024 * 1024 + 17);
      await echo.write(payload);
      await echo.closeStdin();
      expect(await echo.exited).toEqual({ type: 'exited', code: 0, signal: null });
      expect(Buffer.concat(chunks).equals(payload)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('kills the whole process group when the connection drops', async () => {
    const client = await ExecutorClient.connect(server.url, TOKEN);
    let out = '';
    const proc = await client.start(['sh', '-c', 'sleep 300 & echo $!; exec sleep 301'], { cwd: '/', onOutput: (c) => (out += c.data.toString()) });
    await waitFor(() => out.includes('\n'), 'the grandchild pid', 15_000);
    const grandchild = Number(out.trim());
    leftovers.push(proc.pid, grandchild);
    expect(groupMembers(proc.pid).sort()).toEqual([proc.pid, grandchild].sort());
    await client.close();
    await waitFor(() => !isAlive(proc.pid) && !isAlive(grandchild), 'the process group to die', 15_000);
  });

  it('leaves no remote processes when the client process is killed', async () => {
    const holder = spawn(process.execPath, [path.join(FIXTURES, 'exec-client-holder.mjs'), server.url], {
      env: { ...process.env, HOLDER_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    holder.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /pids \d+ \d+\n/.test(out), 'the holder to report its remote pids', 30_000);
    const [, leader, grandchild] = /pids (\d+) (\d+)/.exec(out)!.map(Number);
    leftovers.push(leader!, grandchild!);
    expect(isAlive(leader!) && isAlive(grandchild!)).toBe(true);
    holder.kill('SIGKILL');
    await waitFor(() => !isAlive(leader!) && !isAlive(grandchild!), 'the remote processes of the killed client to die', 15_000);
  });

  it('kills its processes and exits 0 on SIGTERM', async () => {
    const own = await startExecServerProcess(['--token-file', tokenFile]);
    const client = await ExecutorClient.connect(own.url, TOKEN);
    const proc = await client.start(['sh', '-c', 'trap "" TERM; sleep 300'], { cwd: '/' });
    leftovers.push(proc.pid);
    const lost = client.closed;
    expect(await own.stop()).toBe(0);
    expect(isAlive(proc.pid)).toBe(false);
    expect((await lost).reason).toContain('closed');
    expect(own.stderr()).toContain('received SIGTERM');
  });
});
