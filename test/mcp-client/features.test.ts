// Client features against real servers: progress and deadlines, cancellation, elicitation, sampling,
// roots, logging, resources, prompts, capability-gated listing and pagination limits.
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { startHttpFixture } from '../fixtures/mcp/http-fixture.js';
import type { HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { clientPool, failure, fixtureStdio, serverConfig, textOf } from './helpers.js';
import { waitFor } from '../support/wait.js';

const pool = clientPool();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});


async function httpFixture(createServer: () => unknown): Promise<HttpFixture> {
  const f = await startHttpFixture({ createServer: createServer as never });
  fixtures.push(f);
  return f;
}

describe('deadlines and progress', () => {
  it('progress notifications reset the deadline and reach the caller', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs', { tool_timeout_sec: 2 }));
    await client.connect();
    const seen: number[] = [];
    // 5 × 700 ms = 3.5 s in all, well past the 2 s timeout, but never 2 s without progress.
    const result = await client.callTool('progress', { steps: 5, intervalMs: 700 }, { onProgress: (p) => seen.push(p.progress) });
    expect(textOf(result)).toBe('done after 5 steps');
    // The SDK may drop the last notification when the result arrives in the same chunk.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen).toEqual([1, 2, 3, 4, 5].slice(0, seen.length));
  });

  it('without progress the same length of call times out with Codex text', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs', { tool_timeout_sec: 1 }));
    await client.connect();
    const err = await failure(client.callTool('slow', { ms: 2_500 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('timed out awaiting tools/call after 1s');
  });

  it('a per-call timeout overrides the configured one', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'));
    await client.connect();
    const err = await failure(client.callTool('slow', { ms: 5_000 }, { timeoutMs: 300 }));
    expect(err.message).toBe('timed out awaiting tools/call after 300ms');
  });
});

describe('cancellation', () => {
  it('an aborted signal fails the call and sends notifications/cancelled', async () => {
    const events: string[] = [];
    const f = await httpFixture(() => createFixtureServer({ onEvent: (e) => events.push(e) }));
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 30_000 }, { signal: controller.signal });
    await waitFor(() => f.count('tools/call') === 1, 'the call to reach the server', 10_000);
    controller.abort();
    const err = await failure(call);
    expect(err.code).toBe('cancelled');
    await waitFor(() => f.count('notifications/cancelled') === 1, 'notifications/cancelled', 10_000);
    await waitFor(() => events.includes('slow cancelled'), 'the server to stop the tool', 10_000);
  });
});

describe('server-to-client requests', () => {
  it('declines elicitation when no handler is given', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'));
    await client.connect();
    expect(JSON.parse(textOf(await client.callTool('elicit', {})))).toEqual({ action: 'decline' });
  });

  it('routes elicitation to the handler and fills schema defaults into accepted content', async () => {
    const requests: string[] = [];
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'), {
      handlers: {
        elicitation: async (request, ctx) => {
          requests.push(`${ctx.serverName}: ${request.message}`);
          return { action: 'accept', content: {} };
        },
      },
    });
    await client.connect();
    const result = JSON.parse(textOf(await client.callTool('elicit', {})));
    expect(result).toEqual({ action: 'accept', content: { name: 'anonymous', age: 7 } });
    expect(requests).toEqual(['fx: Who are you?']);
  });

  it('advertises sampling only with a handler', async () => {
    const without = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'));
    await without.connect();
    const refused = await without.callTool('sample', { prompt: 'hi' });
    expect(refused.isError).toBe(true);

    const withHandler = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'), {
      handlers: { sampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled!' }, model: 'fake-model' }) },
    });
    await withHandler.connect();
    expect(JSON.parse(textOf(await withHandler.callTool('sample', { prompt: 'hi' }))).content.text).toBe('sampled!');
  });

  it('answers roots/list with the workspace roots it was given', async () => {
    const roots = [{ uri: 'file:///work/project', name: 'project' }];
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'), {}, { roots });
    await client.connect();
    expect(JSON.parse(textOf(await client.callTool('roots', {}))).roots).toEqual(roots);
  });

  it('answers the server ping', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'));
    await client.connect();
    expect(textOf(await client.callTool('ping_client', {}))).toBe('pong');
    await client.ping();
  });

  it('hands server log messages to the handler', async () => {
    const logs: string[] = [];
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'), { handlers: { onLog: (p) => logs.push(`${p.level}:${String(p.data)}`) } });
    await client.connect();
    await client.callTool('log', { message: 'careful' });
    await waitFor(() => logs.includes('warning:careful'), 'the log message', 10_000);
  });
});

describe('resources and prompts', () => {
  it('lists and reads resources, templates and prompts', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'));
    const ready = await client.connect();
    expect(ready.instructions).toBe('Fixture server instructions.');
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['memo://note']);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(['memo://notes/{slug}']);
    const read = await client.readResource('memo://notes/abc');
    expect(read.contents[0]).toMatchObject({ uri: 'memo://notes/abc', text: 'note abc' });
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['greet']);
    const prompt = await client.getPrompt('greet', { name: 'Ada' });
    expect(prompt.messages[0]!.content).toMatchObject({ type: 'text', text: 'Hello, Ada!' });
  });

  it('never asks a server for resources it does not advertise', async () => {
    const f = await httpFixture(() => createFixtureServer({ resources: false, prompts: false }));
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    expect(await client.listResources()).toEqual([]);
    expect(await client.listResourceTemplates()).toEqual([]);
    expect(await client.listPrompts()).toEqual([]);
    expect(f.methods.filter((m) => m.startsWith('resources/') || m.startsWith('prompts/'))).toEqual([]);
    expect((await failure(client.readResource('memo://x'))).code).toBe('protocol');
  });

  it('a server that advertises resources but never answers times out per request', async () => {
    const f = await httpFixture(() => createFixtureServer());
    const client = pool.create(serverConfig('web', { url: f.url }), {}, { toolTimeoutMs: 500 });
    await client.connect();
    f.setDelay('resources/list', 60_000);
    const err = await failure(client.listResources());
    expect(err.message).toBe('timed out awaiting resources/list after 500ms');
    expect(textOf(await client.callTool('echo', { text: 'alive' }))).toBe('alive');
  });
});

/** A low-level server whose tools/list pages are scripted: `pages[i]` answers cursor `String(i)`. */
function pagingServer(pages: { tools: number; next?: string }[]) {
  return () => {
    const server = new Server({ name: 'pager', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', (request) => {
      const index = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
      const page = pages[Math.min(index, pages.length - 1)]!;
      const tools = Array.from({ length: page.tools }, (_, i) => ({ name: `t${index}_${i}`, inputSchema: { type: 'object' as const } }));
      return { tools, ...(page.next !== undefined ? { nextCursor: page.next } : {}) };
    });
    return server;
  };
}

describe('tools/list pagination', () => {
  it('follows nextCursor across pages', async () => {
    const f = await httpFixture(pagingServer([{ tools: 2, next: '1' }, { tools: 2, next: '2' }, { tools: 1 }]));
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    expect((await client.listTools()).map((t) => t.name)).toEqual(['t0_0', 't0_1', 't1_0', 't1_1', 't2_0']);
  });

  it('fails on a repeated cursor', async () => {
    const f = await httpFixture(pagingServer([{ tools: 1, next: '1' }, { tools: 1, next: '1' }]));
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    const err = await failure(client.listTools());
    expect(err.code).toBe('pagination');
    expect(err.message).toBe('tools/list returned a repeated cursor');
  });

  it('fails past 100 pages', async () => {
    const pages = Array.from({ length: 150 }, (_, i) => ({ tools: 1, next: String(i + 1) }));
    const f = await httpFixture(pagingServer(pages));
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    expect((await failure(client.listTools())).message).toBe('tools/list exceeded page limit');
    expect(f.count('tools/list')).toBe(100);
  });

  it('fails past 10,000 tools', async () => {
    const f = await httpFixture(pagingServer([{ tools: 6_000, next: '1' }, { tools: 6_000 }]));
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    expect((await failure(client.listTools())).message).toBe('tools/list exceeded item limit');
  });
});
