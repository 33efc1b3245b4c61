import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readSse, type SseEvent } from '../../../test/support/raw-http-session.js';
import { MemoryEventStore } from './memory-event-store.js';
import { JSON_AT_MOST_BYTES, jsonWhenQuick, loneRequestId, SSE_AFTER_MS } from './quick-answers.js';
import { sseTransport } from './sse-at-once.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/**
 * A 2025 session transport as http-host builds it (sseTransport with an event store, the parsed body
 * handed over) behind a real HTTP server, serving a real SDK server. `held` answers once `release`
 * is called.
 */
async function serve(): Promise<{ url: string; release(): void; events: MemoryEventStore }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const server = new McpServer({ name: 'quick', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text: t }) => text(t));
  server.registerTool('progress', { inputSchema: z.object({ steps: z.number() }) }, async ({ steps }, ctx) => {
    for (let i = 1; i <= steps; i++) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: ctx.mcpReq._meta!.progressToken!, progress: i, total: steps } });
    return text('done');
  });
  server.registerTool('held', {}, async () => {
    await gate;
    return text('released');
  });
  server.registerTool('reconnect', {}, async (ctx) => {
    ctx.http?.closeSSE?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
    return text('answered after reconnect');
  });
  const events = new MemoryEventStore(100, 1 << 20);
  const warnings: string[] = [];
  const transport = sseTransport({ sessionIdGenerator: () => 'sid', eventStore: events, retryInterval: 50 }, (w) => warnings.push(w));
  expect(warnings).toEqual([]); // the SDK still has what streamSseAtOnce reaches for
  await server.connect(transport);
  const httpServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void transport.handleRequest(req, res, chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    release();
    await server.close();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });
  return { url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`, release, events };
}

const headers = (session?: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
});
const post = (url: string, body: unknown, session?: string) => fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', ...(body as object) }) });

async function session(url: string): Promise<string> {
  const init = await post(url, { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  expect(init.headers.get('content-type')).toBe('application/json');
  expect(init.headers.get('mcp-session-id')).toBe('sid');
  expect(((await init.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('quick');
  await (await post(url, { method: 'notifications/initialized' }, 'sid')).text();
  return 'sid';
}

async function allEvents(res: Response): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of readSse(res)) out.push(e);
  return out;
}

describe('a 2025 session answers quick requests as JSON', () => {
  it('a quick call comes back as one JSON body with the session id, no SSE, and keeps no events', async () => {
    const { url, events } = await serve();
    const sid = await session(url);
    const res = await post(url, { id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, sid);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('mcp-session-id')).toBe('sid');
    expect(res.headers.get('transfer-encoding')).toBeNull();
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: text('hi') });
    expect(events.size).toBe(0); // nothing can resume an answer sent whole
  });

  it('a call that sends something before its result streams: priming event, the notifications, the result', async () => {
    const { url, events } = await serve();
    const sid = await session(url);
    const res = await post(url, { id: 8, method: 'tools/call', params: { name: 'progress', arguments: { steps: 2 }, _meta: { progressToken: 'p' } } }, sid);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const got = await allEvents(res);
    expect(got[0]).toMatchObject({ data: '' });
    expect(got[0]!.id).toBeTruthy(); // the priming event: the id to resume from
    expect(got.slice(1).map((e) => e.message?.method ?? e.message?.id)).toEqual(['notifications/progress', 'notifications/progress', 8]);
    expect(events.size).toBe(4); // kept for resumption, as before
  });

  it(`a call slower than ${SSE_AFTER_MS} ms streams from then on: its head and priming event come before its result`, async () => {
    const { url, release } = await serve();
    const sid = await session(url);
    const res = await post(url, { id: 9, method: 'tools/call', params: { name: 'held', arguments: {} } }, sid); // resolves with the head: the tool still waits
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const stream = readSse(res);
    const first = await stream.next();
    expect(first.value).toMatchObject({ data: '' });
    release();
    const second = await stream.next();
    expect(second.value?.message).toEqual({ jsonrpc: '2.0', id: 9, result: text('released') });
    await stream.return(undefined);
  });

  it('a stream the server closes before the result keeps its priming event, and the result is had by resuming', async () => {
    const { url } = await serve();
    const sid = await session(url);
    const res = await post(url, { id: 10, method: 'tools/call', params: { name: 'reconnect', arguments: {} } }, sid);
    const got = await allEvents(res);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ data: '' });
    const resumed = await fetch(url, { headers: { ...headers(sid), accept: 'text/event-stream', 'last-event-id': got[0]!.id! } });
    const stream = readSse(resumed);
    const answer = await stream.next();
    expect(answer.value?.message).toEqual({ jsonrpc: '2.0', id: 10, result: text('answered after reconnect') });
    await stream.return(undefined);
  });
});

/** An SSE response whose body gives `chunks` (then ends, unless `open`); `cancelled` hears a cancel. */
function sse(chunks: string[], options: { open?: boolean; cancelled?: (reason: unknown) => void } = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      if (!options.open) controller.close();
    },
    cancel: options.cancelled,
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' } });
}

const PRIMING = 'id: s_1\nretry: 1000\ndata: \n\n';
const answer = (id: unknown) => `event: message\nid: s_2\ndata: ${JSON.stringify({ result: {}, jsonrpc: '2.0', id })}\n\n`;

describe('jsonWhenQuick', () => {
  it('takes the answer apart from the events around it, split anywhere, and forgets their ids', async () => {
    const whole = PRIMING + answer(3);
    for (const cut of [5, PRIMING.length, PRIMING.length + 20, whole.length - 1]) {
      const forgotten: string[][] = [];
      const res = await jsonWhenQuick(sse([whole.slice(0, cut), whole.slice(cut)]), 3, { forget: (ids) => forgotten.push(ids) });
      expect(forgotten).toEqual([['s_1', 's_2']]);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('mcp-session-id')).toBe('s1');
      expect(await res.json()).toEqual({ result: {}, jsonrpc: '2.0', id: 3 });
    }
  });

  it('streams, every byte as it was, whatever is not the priming event and the answer alone', async () => {
    const notification = `event: message\nid: s_2\ndata: ${JSON.stringify({ method: 'notifications/message', params: {}, jsonrpc: '2.0' })}\n\n`;
    const cases = [
      [PRIMING, notification, answer(3)], // something before the answer
      [PRIMING, answer(4)], // another request's answer
      [PRIMING, ': keep-alive\n\n', answer(3)], // a keep-alive
      [PRIMING, answer(3), notification], // something after it
      [PRIMING, 'event: message\ndata: {not json\n\n'],
      [PRIMING], // ended without the answer
      [],
    ];
    for (const chunks of cases) {
      const res = await jsonWhenQuick(sse(chunks), 3, { forget: () => expect.unreachable('a streamed answer keeps its events') });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('mcp-session-id')).toBe('s1');
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(await res.text()).toBe(chunks.join(''));
    }
  });

  it('streams a large answer as it is, without reading it all back, and sends one just under the bound as JSON', async () => {
    const big = (id: number, length: number) => `event: message\nid: s_2\ndata: ${JSON.stringify({ result: { content: [{ type: 'text', text: 'x'.repeat(length) }] }, jsonrpc: '2.0', id })}\n\n`;
    const over = [PRIMING, big(3, JSON_AT_MOST_BYTES)];
    const res = await jsonWhenQuick(sse(over), 3, { forget: () => expect.unreachable('a streamed answer keeps its events') });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe(over.join(''));
    const under = await jsonWhenQuick(sse([PRIMING, big(3, JSON_AT_MOST_BYTES - 1024)]), 3);
    expect(under.headers.get('content-type')).toBe('application/json');
    expect(((await under.json()) as { id: number }).id).toBe(3);
  });

  it('streams once the wait is over, the held bytes first and then the rest in order; a cancel reaches the source', async () => {
    const encoder = new TextEncoder();
    let source!: ReadableStreamDefaultController<Uint8Array>;
    let cancelled: unknown;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        source = controller;
        controller.enqueue(encoder.encode(PRIMING));
      },
      cancel: (reason) => void (cancelled = reason),
    });
    const res = await jsonWhenQuick(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }), 3, { waitMs: 20 });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe(PRIMING);
    source.enqueue(encoder.encode(answer(3)));
    expect((await reader.read()).value).toBe(answer(3));
    await reader.cancel('gone');
    expect(cancelled).toBe('gone');
  });

  it('leaves alone what is not an SSE answer', async () => {
    const json = new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    const refused = new Response('x', { status: 400, headers: { 'content-type': 'text/event-stream' } });
    expect(await jsonWhenQuick(json, 1)).toBe(json);
    expect(await jsonWhenQuick(refused, 1)).toBe(refused);
  });

  it('knows a POST of one request from the rest', () => {
    expect(loneRequestId({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(1);
    expect(loneRequestId({ jsonrpc: '2.0', id: 'a', method: 'ping' })).toBe('a');
    expect(loneRequestId({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(loneRequestId([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toBeUndefined();
    expect(loneRequestId({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(loneRequestId(undefined)).toBeUndefined();
  });
});
