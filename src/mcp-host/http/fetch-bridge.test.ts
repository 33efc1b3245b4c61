// The bridge from a Node request (body already parsed) to the SDK's serving entry, held against the
// SDK's own Node adapter (toNodeHandler) in front of the same real entry: every answer must be the
// same, JSON or a stream; and what the bridge decides (the client going away, a throw) checked with a
// face that records what it was handed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ENVELOPE_2026 } from '../../../test/support/raw-2026.js';
import { fetchBridge, type FetchFace } from './fetch-bridge.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

type Serve = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => Promise<void>;

/** A real HTTP server that reads and parses the body (as the host does), then hands it to `serve`. */
async function listen(serve: Serve): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void serve(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8'))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** The real entry over a server with two tools: `plain` answers, `chatty` logs first (so its answer streams). */
function entry() {
  const handler = createMcpHandler(
    () => {
      const server = new Server({ name: 'bridge', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      server.setRequestHandler('tools/call', async (request, ctx) => {
        if (request.params.name === 'chatty') await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: 'working' } });
        return { content: [{ type: 'text' as const, text: `called ${request.params.name}` }] };
      });
      return server;
    },
    { legacy: 'reject' },
  );
  closers.push(() => handler.close());
  return handler;
}

function post(url: string, name: string, meta: Record<string, unknown> = ENVELOPE_2026): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {}, _meta: meta } }),
  });
}

async function answer(res: Response) {
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('fetchBridge', () => {
  it('answers as the SDK adapter does: a JSON answer, a streamed one, and a refusal', async () => {
    const handler = entry();
    const ours = await listen(fetchBridge(handler, () => {}));
    const sdks = await listen(toNodeHandler(handler));
    const cases: [string, Record<string, unknown>?][] = [['plain'], ['chatty'], ['plain', { ...ENVELOPE_2026, 'io.modelcontextprotocol/clientInfo': 'not an object' }]];
    for (const [name, meta] of cases) {
      const [a, b] = [await answer(await post(ours, name, meta)), await answer(await post(sdks, name, meta))];
      expect(a).toEqual(b);
    }
    const streamed = await answer(await post(ours, 'chatty'));
    expect(streamed.type).toBe('text/event-stream');
    expect(streamed.body).toContain('"data":"working"');
    expect(streamed.body).toContain('called chatty');
    const refused = await answer(await post(ours, 'plain', { ...ENVELOPE_2026, 'io.modelcontextprotocol/clientInfo': 'not an object' }));
    expect(refused.status).toBe(400);
  });

  it('hands the entry the parsed body, the caller, and a Request with the method, URL and headers', async () => {
    const seen: { request?: Request; options?: Parameters<FetchFace['fetch']>[1] } = {};
    const face: FetchFace = {
      fetch: async (request, options) => {
        Object.assign(seen, { request, options });
        return Response.json({ jsonrpc: '2.0', id: 7, result: {} });
      },
    };
    const url = await listen((req, res, body) => {
      (req as http.IncomingMessage & { auth?: unknown }).auth = { token: 't', clientId: 'c', scopes: [] };
      return fetchBridge(face, () => {})(req, res, body);
    });
    const res = await post(url, 'plain');
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    const { request, options } = seen;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(url);
    expect(request!.headers.get('mcp-name')).toBe('plain');
    expect(options!.parsedBody).toMatchObject({ id: 7, method: 'tools/call', params: { name: 'plain' } });
    expect(options!.authInfo).toEqual({ token: 't', clientId: 'c', scopes: [] });
  });

  it('aborts the request and stops reading the stream when the client goes away', async () => {
    let signal: AbortSignal | undefined;
    let cancelled = false;
    const face: FetchFace = {
      fetch: async (request) => {
        signal = request.signal;
        const body = new ReadableStream<Uint8Array>({
          start: (c) => c.enqueue(new TextEncoder().encode('event: message\ndata: {}\n\n')),
          cancel: () => void (cancelled = true),
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      },
    };
    const url = await listen(fetchBridge(face, () => {}));
    const res = await post(url, 'listen');
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('data: {}');
    await reader.cancel(); // the client goes away: its connection closes
    await expect.poll(() => signal?.aborted).toBe(true);
    await expect.poll(() => cancelled).toBe(true);
  });

  it('answers 500 with the request id when the entry throws, and says why to onerror', async () => {
    const errors: string[] = [];
    const url = await listen(fetchBridge({ fetch: () => Promise.reject(new Error('entry broke')) }, (e) => errors.push(e.message)));
    const res = await post(url, 'plain');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Internal server error' } });
    expect(errors).toEqual(['entry broke']);
  });
});
