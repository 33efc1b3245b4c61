// In-process checks of the service and client internals that a separate process cannot show:
// output backpressure, the heartbeat that drops vanished clients, and the client's sequence check;
// and which token configurations the service refuses to start with.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createLogger, groupExists } from '../util/index.js';
import { ExecutorClient } from './executor-client.js';
import { checkAuthConfig, startExecServer, type ExecServer } from './exec-server.js';
import { waitFor } from '../../test/support/wait.js';

const TOKEN = randomBytes(16).toString('hex');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(options: { heartbeatMs?: number; maxBufferedOutputBytes?: number } = {}): Promise<{ srv: ExecServer; logs: string[] }> {
  const logs: string[] = [];
  const srv = await startExecServer({
    listen: { host: '127.0.0.1', port: 0 },
    token: TOKEN,
    heartbeatMs: options.heartbeatMs,
    limits: options.maxBufferedOutputBytes !== undefined ? { maxBufferedOutputBytes: options.maxBufferedOutputBytes } : {},
    logger: createLogger((l) => logs.push(l), { level: 'debug' }),
  });
  cleanups.push(() => srv.close());
  return { srv, logs };
}

describe('exec-server internals', () => {
  it('pauses a process when its client stops reading, and loses nothing', async () => {
    const { srv, logs } = await server({ maxBufferedOutputBytes: 64 * 1024 });
    const ws = new WebSocket(srv.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    cleanups.push(() => ws.terminate());
    await new Promise((r) => ws.once('open', r));
    const size = 16 * 1024 * 1024;
    let received = 0;
    let zeros = true;
    let exited = false;
    let pid = 0;
    ws.on('message', (d: Buffer) => {
      const f = JSON.parse(d.toString()) as { method?: string; result?: { pid: number }; params?: { data: string } };
      if (f.result) pid = f.result.pid;
      if (f.method === 'process/output') {
        const bytes = Buffer.from(f.params!.data, 'base64');
        received += bytes.length;
        if (bytes.some((b) => b !== 0)) zeros = false;
      }
      if (f.method === 'process/exited') exited = true;
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'process/start', params: { processId: 'z', argv: ['head', '-c', String(size), '/dev/zero'], cwd: '/' } }));
    await waitFor(() => pid !== 0, 'the start reply', 15_000);
    ws.pause();
    await waitFor(() => logs.some((l) => l.includes('output paused')), 'the server to pause output', 15_000);
    expect(exited).toBe(false);
    expect(groupExists(pid)).toBe(true);
    ws.resume();
    await waitFor(() => exited, 'the process to finish after the client resumed', 60_000);
    expect(received).toBe(size);
    expect(zeros).toBe(true);
    expect(logs.some((l) => l.includes('output resumed'))).toBe(true);
  });

  it('drops a client that stops answering pings, and kills its processes', async () => {
    const { srv, logs } = await server({ heartbeatMs: 200 });
    const url = new URL(srv.url);
    // A bare TCP client that completes the upgrade, starts a process, then goes silent.
    const sock = net.connect(Number(url.port), url.hostname);
    cleanups.push(() => void sock.destroy());
    sock.on('error', () => {});
    await new Promise((r) => sock.once('connect', r));
    const key = randomBytes(16).toString('base64');
    sock.write(
      `GET / HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
    );
    let reply = '';
    sock.on('data', (d: Buffer) => (reply += d.toString('latin1')));
    await waitFor(() => reply.includes('\r\n\r\n'), 'the upgrade reply', 15_000);
    expect(reply).toMatch(/^HTTP\/1\.1 101/);
    sock.write(maskedTextFrame(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'process/start', params: { processId: 's', argv: ['sleep', '300'], cwd: '/' } })));
    await waitFor(() => /"pid":(\d+)/.test(reply), 'the start reply', 15_000);
    const pid = Number(/"pid":(\d+)/.exec(reply)![1]);
    expect(groupExists(pid)).toBe(true);
    await waitFor(() => logs.some((l) => l.includes('missed a heartbeat')), 'the heartbeat to drop the client', 15_000);
    await waitFor(() => !groupExists(pid), 'the process of the dropped client to die', 15_000);
  });

  it('the client detects a gap in the sequence, ends the process and asks for a kill', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => new Promise<void>((r) => wss.close(() => r())));
    await new Promise((r) => wss.once('listening', r));
    const methods: string[] = [];
    wss.on('connection', (ws) => {
      ws.on('message', (d: Buffer) => {
        const req = JSON.parse(d.toString()) as { id: number; method: string; params: { processId: string } };
        methods.push(req.method);
        if (req.method !== 'process/start') return;
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { processId: req.params.processId, pid: 4242 } }));
        if (methods.filter((m) => m === 'process/start').length > 1) return;
        const out = (seq: number) => JSON.stringify({ jsonrpc: '2.0', method: 'process/output', params: { processId: req.params.processId, stream: 'stdout', seq, data: 'aGk=' } });
        ws.send(out(0));
        ws.send(out(2));
      });
    });
    const port = (wss.address() as net.AddressInfo).port;
    const client = await ExecutorClient.connect(`ws://127.0.0.1:${port}`, null);
    cleanups.push(() => client.close());
    const chunks: string[] = [];
    const proc = await client.start(['x'], { cwd: '/', onOutput: (c) => chunks.push(c.data.toString()) });
    expect(await proc.exited).toEqual({ type: 'output_lost', expectedSeq: 1, receivedSeq: 2 });
    expect(chunks).toEqual(['hi']);
    await waitFor(() => methods.includes('process/kill'), 'the kill request', 15_000);
    await expect(proc.write('more')).rejects.toThrow('has ended');

    // When the connection drops, running processes and pending requests end with it.
    const second = await client.start(['y'], { cwd: '/' });
    for (const ws of wss.clients) ws.terminate();
    expect(await second.exited).toMatchObject({ type: 'connection_lost' });
    await expect(client.start(['z'], { cwd: '/' })).rejects.toMatchObject({ code: 'exec_connection_lost' });
  });
});

describe('exec-server over TLS', () => {
  it('serves wss:// with a certificate the client is told to trust', { tags: ['openssl'] }, async (ctx) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-tls-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const gen = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')]);
    if (gen.error || gen.status !== 0) return ctx.skip(`openssl cannot make a test certificate here: ${gen.error ?? gen.stderr.toString()}`);
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    const srv = await startExecServer({
      listen: { host: '127.0.0.1', port: 0 },
      token: TOKEN,
      tls: { cert, key: readFileSync(path.join(dir, 'key.pem')) },
      logger: createLogger(() => {}),
    });
    cleanups.push(() => srv.close());
    expect(srv.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    await expect(ExecutorClient.connect(srv.url, TOKEN)).rejects.toMatchObject({ code: 'exec_connect_failed' });
    const client = await ExecutorClient.connect(srv.url, TOKEN, { ca: cert });
    cleanups.push(() => client.close());
    let out = '';
    const proc = await client.start(['echo', 'over tls'], { cwd: '/', onOutput: (c) => (out += c.data.toString()) });
    expect(await proc.exited).toEqual({ type: 'exited', code: 0, signal: null });
    expect(out).toBe('over tls\n');
  });
});

/** A client-to-server WebSocket text frame (clients must mask). */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([header, mask, masked]);
}

describe('checkAuthConfig', () => {
  const listen = (host: string) => ({ host, port: 0 });
  it('needs a token unless explicitly insecure on loopback', () => {
    expect(() => checkAuthConfig({ listen: listen('0.0.0.0'), token: 'tok' })).not.toThrow();
    expect(() => checkAuthConfig({ listen: listen('127.0.0.1'), token: null })).toThrow('no token configured');
    expect(() => checkAuthConfig({ listen: listen('127.0.0.1'), token: null, insecureNoAuth: true })).not.toThrow();
    expect(() => checkAuthConfig({ listen: listen('0.0.0.0'), token: null, insecureNoAuth: true })).toThrow('only allowed on a loopback address');
    expect(() => checkAuthConfig({ listen: listen('127.0.0.1'), token: '  ' })).toThrow('token is empty');
  });
});
