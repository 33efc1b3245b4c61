import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { post2025 } from '../../../test/support/raw-http-session.js';
import { MemoryEventStore } from './memory-event-store.js';
import { streamSseAtOnce } from './sse-at-once.js';
import { markSseChunked } from './sse-chunked.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A session transport (with an event store, as http-host builds them) behind a real HTTP server. */
async function serve(patched: boolean): Promise<string> {
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => 'sid', eventStore: new MemoryEventStore(100, 1 << 20) });
  if (patched) expect(streamSseAtOnce(transport)).toBe(true);
  const server = new Server({ name: 'sse', version: '1.0.0' }, { capabilities: {} });
  await server.connect(transport);
  const httpServer = http.createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    await server.close();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });
  return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
}

const post = post2025;

/** initialize, then a ping: two SSE responses, each opened by a priming event. */
async function initializeAndPing(url: string): Promise<{ init: Response; initText: string; ping: Response; pingText: string }> {
  const init = await post(url, { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const initText = await init.text();
  await (await post(url, { method: 'notifications/initialized' }, 'sid')).text();
  const ping = await post(url, { id: 2, method: 'ping' }, 'sid');
  return { init, initText, ping, pingText: await ping.text() };
}

// Event ids differ from run to run; the events themselves must not.
const shape = (t: string) => t.replace(/^id: .*$/gm, 'id: _');

describe('streamSseAtOnce', () => {
  it('marks SSE responses chunked and leaves the events they carry as they were', async () => {
    const plain = await initializeAndPing(await serve(false));
    const patched = await initializeAndPing(await serve(true));
    // What the patch saves (the adapter's timer tick) is time only, left to the gateway-peers bench;
    // here: the SDK still has what the patch reaches for (serve() asserts it) and nothing else changes.
    for (const res of [patched.init, patched.ping]) {
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-length')).toBeNull();
      expect(res.headers.get('mcp-session-id')).toBe('sid');
    }
    expect(patched.initText).toContain('"serverInfo":{"name":"sse"');
    expect(shape(patched.initText)).toBe(shape(plain.initText));
    expect(shape(patched.pingText)).toBe(shape(plain.pingText));
    expect(patched.pingText).toMatch(/^id: .+\ndata: \n\n/m); // the priming event resumption starts from
  });

  it('hands the Node adapter SSE responses already marked chunked (what lets it skip its timer tick); unpatched ones are not', async () => {
    const webResponse = async (patched: boolean) => {
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => 'sid', eventStore: new MemoryEventStore(100, 1 << 20) });
      if (patched) expect(streamSseAtOnce(transport)).toBe(true);
      const server = new Server({ name: 'sse', version: '1.0.0' }, { capabilities: {} });
      await server.connect(transport);
      closers.push(() => server.close());
      const web = (transport as unknown as { _webStandardTransport: { handleRequest(r: Request): Promise<Response> } })._webStandardTransport;
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const res = await web.handleRequest(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) }),
      );
      await res.text();
      return res;
    };
    const plain = await webResponse(false);
    const patched = await webResponse(true);
    expect(plain.headers.get('content-type')).toBe('text/event-stream');
    expect(plain.headers.get('transfer-encoding')).toBeNull();
    expect(patched.headers.get('transfer-encoding')).toBe('chunked');
  });
});

describe('markSseChunked', () => {
  it("leaves hono's Response as it was built (what lets hono write a JSON answer's string as it is), and marks an SSE one", () => {
    getRequestListener(() => new Response(null)); // hono's Response becomes the global one, as in the host
    const built = (r: Response) => Object.getOwnPropertySymbols(r).some((s) => s.description === 'cache');
    const json = new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } });
    const sse = new Response(new ReadableStream(), { headers: { 'content-type': 'text/event-stream' } });
    expect([built(json), built(sse)]).toEqual([true, true]); // the check can fail: hono still keeps what it was built from
    expect(markSseChunked(json).headers.get('transfer-encoding')).toBeNull();
    expect(markSseChunked(sse).headers.get('transfer-encoding')).toBe('chunked');
    expect([built(json), built(sse)]).toEqual([true, true]);
    void json.body; // what the mark used to read first: the whole web Response is built
    expect(built(json)).toBe(false);
  });
});
