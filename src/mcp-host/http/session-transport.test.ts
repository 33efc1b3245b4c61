// A 2025 session's transport (the SDK's web-standard transport behind the fetch bridge) held against
// the SDK's own Node transport on the same requests: the same events, marked chunked and sent at once;
// and a standalone stream with nothing to send yet opens at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { post2025 } from '../../../test/support/raw-http-session.js';
import { MemoryEventStore } from './memory-event-store.js';
import { SessionTransport } from './session-transport.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A session transport (with an event store, as http-host builds them) behind a real HTTP server that parses bodies as the host does. */
async function serve(kind: 'ours' | 'sdk'): Promise<string> {
  const options = { sessionIdGenerator: () => 'sid', eventStore: new MemoryEventStore(100, 1 << 20) };
  const ours = kind === 'ours' ? new SessionTransport(options, () => {}) : undefined;
  const sdks = kind === 'sdk' ? new NodeStreamableHTTPServerTransport(options) : undefined;
  const server = new Server({ name: 'sse', version: '1.0.0' }, { capabilities: { logging: {} } });
  await server.connect(ours ? ours.web : sdks!);
  const httpServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
      void (ours ? ours.handleRequest(req, res, body) : sdks!.handleRequest(req, res, body));
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    await server.close();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });
  return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
}

/** initialize, then a ping: two SSE responses, each opened by a priming event. */
async function initializeAndPing(url: string): Promise<{ init: Response; initText: string; ping: Response; pingText: string }> {
  const init = await post2025(url, { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const initText = await init.text();
  await (await post2025(url, { method: 'notifications/initialized' }, 'sid')).text();
  const ping = await post2025(url, { id: 2, method: 'ping' }, 'sid');
  return { init, initText, ping, pingText: await ping.text() };
}

// Event ids differ from run to run; the events themselves must not.
const shape = (t: string) => t.replace(/^id: .*$/gm, 'id: _');

describe('SessionTransport', () => {
  it('answers as the SDK Node transport does, its SSE answers chunked', async () => {
    const sdks = await initializeAndPing(await serve('sdk'));
    const ours = await initializeAndPing(await serve('ours'));
    for (const res of [ours.init, ours.ping]) {
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-length')).toBeNull();
      expect(res.headers.get('mcp-session-id')).toBe('sid');
    }
    expect(ours.initText).toContain('"serverInfo":{"name":"sse"');
    expect(shape(ours.initText)).toBe(shape(sdks.initText));
    expect(shape(ours.pingText)).toBe(shape(sdks.pingText));
    expect(ours.pingText).toMatch(/^id: .+\ndata: \n\n/m); // the priming event resumption starts from
  });

  it('opens a standalone stream at once, though nothing is sent on it yet', async () => {
    const url = await serve('ours');
    await initializeAndPing(url);
    const opened = await Promise.race([
      fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'sid', 'mcp-protocol-version': '2025-11-25' } }),
      new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 2_000)),
    ]);
    expect(opened).not.toBe('waiting');
    const res = opened as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    await res.body!.cancel();
  });
});
