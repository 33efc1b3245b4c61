// 2026-07-28 change notifications and cache hints, against real SDK v2 servers that speak only that
// revision: a tool added on the server reaches the catalog through subscriptions/listen (over HTTP
// and stdio), a dropped listen stream is opened again and the next change still arrives, a list past
// its ttlMs is read again on the next use, and a startup snapshot answers only within its TTL.
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig, type McpServerConfig } from '../../src/config/index.js';
import { SnapshotStore } from '../../src/mcp/index.js';
import { nullLogger } from '../../src/util/index.js';
import { startHttpFixture, type HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { makeHarness, textOf, type Harness } from './manager-harness.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const config = (name: string, raw: Record<string, unknown>): McpServerConfig => parseMcpServerConfig(name, raw).config;

const open: (Harness | HttpFixture)[] = [];
const homes: string[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  await Promise.all(homes.splice(0).map((h) => removeTree(h)));
});

type CacheHints = NonNullable<Parameters<typeof createFixtureServer>[0]>['cacheHints'];

/** A 2026-07-28-only HTTP server whose tool list grows when the test pushes a name to `extra`. */
async function modernHttp(name: string, cacheHints?: CacheHints): Promise<{ fixture: HttpFixture; extra: string[] }> {
  const extra: string[] = [];
  const fixture = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer({ name, extraTools: extra, cacheHints }) as never });
  open.push(fixture);
  return { fixture, extra };
}

async function harness(servers: McpServerConfig[], home?: string): Promise<Harness> {
  const dir = home ?? (await tempDir('sb-listen-'));
  if (!home) homes.push(dir);
  const h = await makeHarness(servers, { home: dir });
  open.push(h);
  return h;
}

const added = (server: string, tool: string) => (e: { type: string; server?: string; added?: string[] }) => e.type === 'mcp_tools_changed' && e.server === server && (e.added ?? []).includes(tool);

describe('change notifications through subscriptions/listen', () => {
  it('a tool added on a 2026-07-28 HTTP server reaches the catalog; after a dropped stream, the next one too', async () => {
    const { fixture, extra } = await modernHttp('modern-listen');
    const h = await harness([config('web', { url: fixture.url })]);
    await h.manager.listAllTools({ wait: 'all' });
    expect(h.manager.status()[0]!.protocol).toBe('2026-07-28');
    await waitFor(() => fixture.listenerCount() === 1, 'the listen stream to be open');

    extra.push('first_added');
    fixture.notify.toolsChanged();
    await h.waitFor(added('web', 'first_added'));
    expect(textOf(await h.manager.callTool('mcp__web__first_added', {}))).toBe('first_added');

    // The server cuts the stream: the client opens it again and reads the list once (changes made
    // meanwhile were never announced), then a change announced on the new stream arrives as well.
    const listsBefore = fixture.count('tools/list');
    expect(fixture.dropListenStreams()).toBe(1);
    await waitFor(() => fixture.count('subscriptions/listen') === 2 && fixture.listenerCount() === 1, 'the listen stream to be opened again');
    await waitFor(() => fixture.count('tools/list') === listsBefore + 1, 'the list to be read again after the stream came back');
    extra.push('second_added');
    fixture.notify.toolsChanged();
    await h.waitFor(added('web', 'second_added'));
    expect(fixture.count('tools/list')).toBe(listsBefore + 2);
  });

  it('a tool registered at run time on a 2026-07-28 stdio server reaches the catalog', async () => {
    const h = await harness([config('local', { command: process.execPath, args: [fixtureProgram('mcp/stdio-v2-server.mjs')], env: { FIXTURE_SERVE: 'modern-only', FIXTURE_RUNTIME_TOOLS: '1' } })]);
    await h.manager.listAllTools({ wait: 'all' });
    expect(h.manager.status()[0]!.protocol).toBe('2026-07-28');
    // On 2026-07-28 the server announces the new tool on the listen stream only.
    expect(textOf(await h.manager.callTool('mcp__local__register_tool', { name: 'grown' }))).toBe('registered grown');
    await h.waitFor(added('local', 'grown'));
    expect(textOf(await h.manager.callTool('mcp__local__grown', {}))).toBe('grown');
  });
});

describe('cache hints (ttlMs) on 2026-07-28 tool lists', () => {
  it('a list is read again on the first use past its ttlMs, not before', async () => {
    const { fixture, extra } = await modernHttp('modern-ttl', { 'tools/list': { ttlMs: 400 } });
    const h = await harness([config('web', { url: fixture.url })]);
    await h.manager.listAllTools({ wait: 'all' });
    expect(fixture.count('tools/list')).toBe(1);
    // Changed without an announcement: within the TTL the catalog keeps its list.
    extra.push('quiet_tool');
    await h.manager.listAllTools();
    await new Promise((r) => setTimeout(r, 100));
    expect(fixture.count('tools/list')).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    await h.manager.listAllTools();
    await h.waitFor(added('web', 'quiet_tool'));
    expect(fixture.count('tools/list')).toBe(2);
  });

  it('a 2025 server (no cache hints) is never re-listed on use', async () => {
    const legacy = await startHttpFixture({ flavor: 'v2', createServer: () => createFixtureServer({ name: 'legacy-ttl' }) as never });
    open.push(legacy);
    const h = await harness([config('old', { url: legacy.url })]);
    await h.manager.listAllTools({ wait: 'all' });
    expect(h.manager.status()[0]!.protocol).toBe('2025-11-25');
    await new Promise((r) => setTimeout(r, 50));
    await h.manager.listAllTools();
    await new Promise((r) => setTimeout(r, 100));
    expect(legacy.count('tools/list')).toBe(1);
  });

  it('a warm start answers from a snapshot within its TTL, and waits for the live list past it', async () => {
    const fresh = await modernHttp('modern-fresh', { 'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' } });
    const stale = await modernHttp('modern-stale', { 'tools/list': { ttlMs: 0 } });
    const servers = [config('fresh', { url: fresh.fixture.url }), config('stale', { url: stale.fixture.url })];
    const home = await tempDir('sb-listen-warm-');
    homes.push(home);
    const first = await harness(servers, home);
    await first.manager.listAllTools({ wait: 'all' });
    await first.close();
    open.splice(open.indexOf(first), 1);

    const store = SnapshotStore.inHome(home, nullLogger);
    const snaps = await Promise.all(servers.map((s) => store.load(s)));
    expect(snaps.map((s) => s?.cache && { ttl_ms: s.cache.ttl_ms, scope: s.cache.scope })).toEqual([
      { ttl_ms: 3_600_000, scope: 'public' },
      { ttl_ms: 0, scope: 'private' },
    ]);

    // Both lists are slow on the warm start; the stale one's TTL has run out, so it is waited for.
    fresh.fixture.setDelay('tools/list', 4_000);
    stale.fixture.setDelay('tools/list', 300);
    const warm = await harness(servers, home);
    const started = Date.now();
    const entries = await warm.manager.listAllTools();
    const sources = Object.fromEntries(['fresh', 'stale'].map((s) => [s, [...new Set(entries.filter((e) => e.server === s).map((e) => e.source))]]));
    expect(sources).toEqual({ fresh: ['snapshot'], stale: ['live'] });
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
