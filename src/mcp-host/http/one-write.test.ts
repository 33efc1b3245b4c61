import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { post2025 } from '../../../test/support/raw-http-session.js';
import { MemoryEventStore } from './memory-event-store.js';
import { PRIMING_HOLD_MS } from './one-write.js';
import { sseTransport } from './sse-at-once.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A session transport as http-host builds it (event store, retry interval) behind a real HTTP server; counts the socket writes of each POST. */
async function serve(slowMs: number, holdMs = PRIMING_HOLD_MS): Promise<{ url: string; writes: number[] }> {
  const options = { sessionIdGenerator: () => 'sid', eventStore: new MemoryEventStore(100, 1 << 20), retryInterval: 1000 };
  const transport = sseTransport(
    options,
    (m) => {
      throw new Error(m);
    },
    holdMs,
  );
  const server = new Server({ name: 'one-write', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async () => {
    await new Promise((r) => setTimeout(r, slowMs));
    return { content: [{ type: 'text', text: 'answer' }] };
  });
  await server.connect(transport);
  const writes: number[] = [];
  const httpServer = http.createServer((req, res) => {
    if (req.method === 'POST') {
      // What reaches the kernel: one _write or _writev call per send.
      const socket = res.socket as Socket & { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
      const slot = writes.push(0) - 1;
      for (const name of ['_write', '_writev'] as const) {
        const original = socket[name];
        socket[name] = function (this: Socket, ...args: unknown[]) {
          writes[slot]! += 1;
          return original.apply(this, args);
        };
        // keep-alive: the next request on this socket counts for itself
        res.once('finish', () => (socket[name] = original));
      }
    }
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    await server.close();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });
  return { url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`, writes };
}

const post = post2025;

async function session(url: string): Promise<void> {
  await (await post(url, { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })).text();
  await (await post(url, { method: 'notifications/initialized' }, 'sid')).text();
}

const call = { id: 2, method: 'tools/call', params: { name: 'x', arguments: {} } };

describe('sendTogether', () => {
  it('sends a quick SSE answer with its head and priming event in one socket write, the priming event first', async () => {
    // A hold far longer than the call: a loaded machine must not turn this into a test of its speed.
    const { url, writes } = await serve(0, 60_000);
    await session(url);
    const before = writes.length;
    const res = await post(url, call, 'sid');
    const text = await res.text();
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(text).toMatch(/^id: \S+\nretry: 1000\ndata: \n\nevent: message\nid: \S+\ndata: \{.*"text":"answer".*\}\n\n$/);
    expect(writes.slice(before)).toEqual([1]);
  });

  it('still sends the head and priming event of a slow answer long before it, so a client can resume', async () => {
    const slowMs = PRIMING_HOLD_MS + 1000;
    const { url } = await serve(slowMs);
    await session(url);
    const started = Date.now();
    const res = await post(url, call, 'sid');
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(Date.now() - started).toBeLessThan(slowMs);
    expect(first).toMatch(/^id: \S+\nretry: 1000\ndata: \n\n$/);
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toContain('"text":"answer"');
  });
});
