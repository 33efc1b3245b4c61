// Security: every network listener switchboard opens — the exec-server (WebSocket), `mcp-server --http`
// and `serve --http` (Streamable HTTP) — refuses a missing or wrong token and requests a browser could
// be tricked into sending (a foreign Origin, or a Host that is not the listener's own: DNS rebinding),
// before doing anything. A new listener joins the LISTENERS list with a start function and a probe.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startExecServerProcess, type ExecServerProcess } from '../support/exec-processes.js';

export interface Probe {
  /** Extra headers (Authorization, Host, Origin). */
  headers: Record<string, string>;
}

export interface ListenerUnderTest {
  name: string;
  /** The status of an accepted probe (101 for a WebSocket upgrade, 200 for an HTTP initialize). */
  accepted: number;
  /** Starts the listener on `listen`; `token` null means it runs without one (where allowed: loopback, insecure flag). */
  start(token: string | null, listen: string): Promise<{ url: string; stop(): Promise<unknown> }>;
  /** Sends one request as a client would; resolves with the HTTP status (101 = WebSocket accepted). */
  probe(url: string, probe: Probe): Promise<number>;
}

/** A WebSocket upgrade by hand, so any Host and Origin can be sent. */
function upgrade(url: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(url.replace(/^ws/, 'http'));
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname,
      port: u.port,
      path: '/',
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    });
    req.once('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.once('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}

/** An MCP `initialize` POST by hand, so any Host and Origin can be sent. */
function initializePost(url: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.destroy(); // the status is all we need (an accepted initialize may keep an SSE stream open)
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end(body);
  });
}

/** `switchboard <args>` (the built CLI) until it prints `listening on <url>`. */
function startCli(args: string[]): Promise<{ url: string; stop(): Promise<unknown> }> {
  const home = mkdtempSync(path.join(dir, 'home-'));
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: no "listening on" line within 30 s; stderr: ${err}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening; stderr: ${err}`)));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        stop: async () => {
          child.kill('SIGTERM');
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(kill);
        },
      });
    });
  });
}

function tokenArgs(token: string | null): string[] {
  if (token === null) return ['--insecure-no-auth'];
  const file = path.join(dir, `token-${randomBytes(4).toString('hex')}`);
  writeFileSync(file, token, { mode: 0o600 });
  return ['--token-file', file];
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-listeners-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LISTENERS: ListenerUnderTest[] = [
  {
    name: 'exec-server',
    accepted: 101,
    async start(token, listen) {
      const server: ExecServerProcess = await startExecServerProcess(['--listen', listen, ...tokenArgs(token)]);
      return { url: server.url, stop: () => server.stop() };
    },
    probe: (url, p) => upgrade(url, p.headers),
  },
  {
    name: 'mcp-server --http',
    accepted: 200,
    start: (token, listen) => startCli(['mcp-server', '--http', listen, ...tokenArgs(token)]),
    probe: (url, p) => initializePost(url, p.headers),
  },
  {
    name: 'serve --http',
    accepted: 200,
    start: (token, listen) => startCli(['serve', '--http', listen, ...tokenArgs(token)]),
    probe: (url, p) => initializePost(url, p.headers),
  },
];

const TOKEN = randomBytes(24).toString('base64url');
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const hostOf = (url: string) => new URL(url.replace(/^ws/, 'http')).host;
const portOf = (url: string) => new URL(url.replace(/^ws/, 'http')).port;

describe.each(LISTENERS)('security: the $name listener', (listener) => {
  let withToken: { url: string; stop(): Promise<unknown> };
  let noToken: { url: string; stop(): Promise<unknown> };
  beforeAll(async () => {
    withToken = await listener.start(TOKEN, '127.0.0.1:0');
    // A bare `:port` means loopback for every listener, so --insecure-no-auth is allowed on it.
    noToken = await listener.start(null, ':0');
  }, 60_000);
  afterAll(async () => {
    await withToken?.stop();
    await noToken?.stop();
  });

  it('accepts the right token, and refuses a missing, wrong or malformed one with 401', async () => {
    expect(await listener.probe(withToken.url, { headers: bearer(TOKEN) })).toBe(listener.accepted);
    expect(await listener.probe(withToken.url, { headers: {} })).toBe(401);
    expect(await listener.probe(withToken.url, { headers: bearer(`${TOKEN}x`) })).toBe(401);
    expect(await listener.probe(withToken.url, { headers: bearer(TOKEN.slice(0, -1)) })).toBe(401);
    expect(await listener.probe(withToken.url, { headers: { authorization: TOKEN } })).toBe(401);
    expect(await listener.probe(withToken.url, { headers: { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` } })).toBe(401);
    expect(await listener.probe(withToken.url, { headers: bearer('') })).toBe(401);
  });

  it('refuses a browser Origin that is not its own, with and without a token (cross-site WebSocket hijacking)', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example']) {
      expect(await listener.probe(withToken.url, { headers: { ...bearer(TOKEN), origin } }), origin).toBe(403);
      expect(await listener.probe(noToken.url, { headers: { origin } }), origin).toBe(403);
    }
  });

  it('on loopback, refuses a Host that is not a loopback name (DNS rebinding), and accepts its own', async () => {
    for (const host of ['evil.example', `evil.example:${portOf(noToken.url)}`, '10.0.0.1']) {
      expect(await listener.probe(noToken.url, { headers: { host } }), host).toBe(403);
      expect(await listener.probe(withToken.url, { headers: { ...bearer(TOKEN), host } }), host).toBe(403);
    }
    expect(await listener.probe(noToken.url, { headers: { host: hostOf(noToken.url) } })).toBe(listener.accepted);
    expect(await listener.probe(noToken.url, { headers: { host: `localhost:${portOf(noToken.url)}` } })).toBe(listener.accepted);
    expect(await listener.probe(noToken.url, { headers: { host: hostOf(noToken.url), origin: `http://${hostOf(noToken.url)}` } })).toBe(listener.accepted);
    // A loopback page on another port (a local dev server) is as local as the listener's own.
    expect(await listener.probe(noToken.url, { headers: { host: hostOf(noToken.url), origin: 'http://localhost:3000' } })).toBe(listener.accepted);
  });
});
