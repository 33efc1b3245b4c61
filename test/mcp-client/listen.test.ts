// subscriptions/listen on a 2026-07-28 connection, seen from one McpClient: prompt and resource list
// changes and subscribed resources' updates reach the same handlers as a 2025 server's notifications,
// lists within their ttlMs come from the SDK's cache until a change evicts them, and a listen stream
// the server keeps refusing is given up after the last retry delay.
import { afterEach, describe, expect, it } from 'vitest';
import type { McpClientHandlers } from '../../src/mcp-client/index.js';
import { startHttpFixture, type HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { waitFor } from '../support/wait.js';
import { clientPool, serverConfig } from './helpers.js';

const pool = clientPool();
let fixture: HttpFixture | undefined;
afterEach(async () => {
  await pool.closeAll();
  await fixture?.close();
});

type Options = NonNullable<Parameters<typeof createFixtureServer>[0]>;

async function connected(server: Options, listenRetryDelaysMs?: number[]) {
  const seen: string[] = [];
  const handlers: McpClientHandlers = {
    onToolsListChanged: () => seen.push('tools'),
    onPromptsListChanged: () => seen.push('prompts'),
    onResourcesListChanged: () => seen.push('resources'),
    onResourceUpdated: (uri) => seen.push(`updated ${uri}`),
  };
  const f = (fixture = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer(server) as never }));
  const client = pool.create(serverConfig('modern', { url: f.url }), { handlers }, listenRetryDelaysMs ? { listenRetryDelaysMs } : {});
  expect((await client.connect()).protocolVersion).toBe('2026-07-28');
  await waitFor(() => f.listenerCount() === 1, 'the listen stream to be open');
  return { client, f, seen };
}

describe('subscriptions/listen on a 2026-07-28 connection', () => {
  it('prompt and resource list changes and subscribed resource updates reach the handlers', async () => {
    const { client, f, seen } = await connected({ subscribe: true });
    f.notify.promptsChanged();
    f.notify.resourcesChanged();
    await waitFor(() => seen.length === 2, 'both list changes');
    expect(seen).toEqual(['prompts', 'resources']);

    // No resources/subscribe on 2026-07-28: the stream is opened again naming the resource.
    await client.subscribe('memo://note');
    expect(f.count('resources/subscribe')).toBe(0);
    expect(f.count('subscriptions/listen')).toBe(2);
    await waitFor(() => f.listenerCount() === 1, 'one open stream');
    f.notify.resourceUpdated('memo://other');
    f.notify.resourceUpdated('memo://note');
    await waitFor(() => seen.length === 3, 'the update');
    expect(seen[2]).toBe('updated memo://note');

    await client.unsubscribe('memo://note');
    expect(f.count('subscriptions/listen')).toBe(3);
    f.notify.resourceUpdated('memo://note');
    f.notify.promptsChanged();
    await waitFor(() => seen.length === 4, 'the next change');
    expect(seen[3]).toBe('prompts');
  });

  it('a prompt list within its ttlMs is served from the cache until a change evicts it', async () => {
    const { client, f, seen } = await connected({ cacheHints: { 'prompts/list': { ttlMs: 60_000 } } });
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['greet']);
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['greet']);
    expect(f.count('prompts/list')).toBe(1);
    f.notify.promptsChanged();
    await waitFor(() => seen.includes('prompts'), 'the prompt list change');
    await client.listPrompts();
    expect(f.count('prompts/list')).toBe(2);
  });

  it('a stream the server keeps refusing is given up after the last retry delay', async () => {
    const { f } = await connected({}, [50, 50]);
    f.failNext({ status: 500, count: 10 });
    expect(f.dropListenStreams()).toBe(1);
    await waitFor(() => f.count('subscriptions/listen') === 3, 'two more attempts');
    await new Promise((r) => setTimeout(r, 300));
    expect(f.count('subscriptions/listen')).toBe(3);
    expect(f.listenerCount()).toBe(0);
  });
});
