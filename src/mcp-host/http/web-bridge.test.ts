import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { post2025, readSse } from '../../../test/support/raw-http-session.js';
import { MemoryEventStore } from './memory-event-store.js';
import { serveWeb } from './web-bridge.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** What the server's ping handler saw of ctx.http.req. */
let seen: { url?: string; probe?: string | null; method?: string } = {};

/** A session transport (event store as http-host builds them) behind a real HTTP server, served by the bridge or by the SDK's Node adapter. */
async function serve(via: 'bridge' | 'sdk'): Promise<string> {
  const options = { sessionIdGenerator: () => 'sid', eventStore: new MemoryEventStore(100, 1 << 20) };
  const web = new WebStandardStreamableHTTPServerTransport(options);
  const node = new NodeStreamableHTTPServerTransport(options);
  const server = new Server({ name: 'bridge', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', (_request, ctx) => {
    const req = ctx.http?.req;
    seen = { url: req?.url, probe: req?.headers.get('x-probe'), method: req?.method };
    return { tools: [] };
  });
  await server.connect(via === 'bridge' ? web : node);
  const httpServer = http.createServer((req, res) => {
    const body = new Promise<unknown>((resolve) => {
      if (req.method !== 'POST') return resolve(undefined);
      let text = '';
      req.setEncoding('utf8').on('data', (d: string) => (text += d));
      req.on('end', () => resolve(JSON.parse(text)));
    });
    void body.then((parsed) => (via === 'bridge' ? serveWeb(web, req, res, parsed) : node.handleRequest(req, res, parsed)));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    await server.close();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });
  return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
}

// Event ids differ from run to run; the events themselves must not.
const shape = (t: string) => t.replace(/^id: .*$/gm, 'id: _');
const INIT = { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

interface Seen {
  status: number;
  headers: Record<string, string | null>;
  text: string;
}

async function look(res: Response): Promise<Seen> {
  const names = ['content-type', 'content-length', 'transfer-encoding', 'mcp-session-id', 'cache-control', 'allow'];
  return { status: res.status, headers: Object.fromEntries(names.map((n) => [n, res.headers.get(n)])), text: shape(await res.text()) };
}

/** One session's exchanges, as a client sees them. */
async function exchanges(url: string): Promise<Seen[]> {
  const out: Seen[] = [];
  out.push(await look(await post2025(url, INIT)));
  out.push(await look(await post2025(url, { method: 'notifications/initialized' }, 'sid')));
  out.push(await look(await post2025(url, { id: 2, method: 'ping' }, 'sid')));
  out.push(await look(await post2025(url, { id: 3, method: 'tools/list' }, 'sid')));
  out.push(await look(await post2025(url, { id: 4, method: 'ping' }, 'other-session')));
  out.push(await look(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-session-id': 'sid' }, body: '{"jsonrpc":"2.0","id":5,"method":"ping"}' })));
  out.push(await look(await fetch(url, { method: 'PUT', headers: { 'mcp-session-id': 'sid' } })));
  out.push(await look(await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': 'sid', 'mcp-protocol-version': '2025-11-25' } })));
  return out;
}

describe('serveWeb', () => {
  it('answers every kind of request as the SDK Node adapter does (status, headers, events)', async () => {
    const sdk = await exchanges(await serve('sdk'));
    const bridge = await exchanges(await serve('bridge'));
    // The adapter marks no SSE response chunked in its headers object; node adds the same header itself.
    for (const s of sdk) if (s.headers['content-type'] === 'text/event-stream') s.headers['transfer-encoding'] = 'chunked';
    expect(bridge).toEqual(sdk);
    expect(bridge[0]!.text).toContain('"serverInfo":{"name":"bridge"');
    expect(bridge[2]!.text).toMatch(/^id: _\ndata: \n\n/m); // the priming event resumption starts from
  });

  it('gives handlers the request: method and headers, and the rest through a real Request', async () => {
    const url = await serve('bridge');
    await (await post2025(url, INIT)).text();
    await (await post2025(url, { method: 'notifications/initialized' }, 'sid')).text();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'sid', 'mcp-protocol-version': '2025-11-25', 'x-probe': '  a  ' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(await res.text()).toContain('"tools":[]');
    expect(seen).toEqual({ url: `${url}`, probe: 'a', method: 'POST' });
  });

  it('starts a listening stream at once, before any event', async () => {
    const url = await serve('bridge');
    await (await post2025(url, INIT)).text();
    await (await post2025(url, { method: 'notifications/initialized' }, 'sid')).text();
    const controller = new AbortController();
    const res = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'sid', 'mcp-protocol-version': '2025-11-25' }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = readSse(res);
    const first = events.next();
    // Nothing was sent: the stream is open and waiting.
    expect(await Promise.race([first.then(() => 'event'), new Promise((r) => setTimeout(() => r('waiting'), 200))])).toBe('waiting');
    controller.abort();
    await first.catch(() => {});
  });
});
