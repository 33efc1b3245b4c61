// One manager, servers of both protocol eras: an SDK v2 server that speaks only 2026-07-28 over HTTP
// (createMcpHandler, legacy: 'reject') and over stdio (serveStdio, legacy: 'reject'), an SDK v1
// server (2025 only) and server-everything. Status shows what each negotiated; snapshots record it;
// a warm start adopts the recorded verdict instead of probing, and drops it when it went stale.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig, type McpServerConfig } from '../../src/config/index.js';
import { createDefaultClientFactory, SnapshotStore, type ClientFactory } from '../../src/mcp/index.js';
import type { PriorDiscovery } from '../../src/mcp-client/index.js';
import { nullLogger } from '../../src/util/index.js';
import { startHttpFixture, type HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { createV1Server } from '../fixtures/mcp/v1-server.mjs';
import { removeTree, tempDir } from '../support/temp.js';
import { makeHarness, textOf, type Harness } from './manager-harness.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const config = (name: string, raw: Record<string, unknown>): McpServerConfig => parseMcpServerConfig(name, raw).config;
const stdio = (name: string, file: string, env: Record<string, string> = {}) => config(name, { command: process.execPath, args: [fixtureProgram(`mcp/${file}`)], env });

const open: (Harness | HttpFixture)[] = [];
const homes: string[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  await Promise.all(homes.splice(0).map((h) => removeTree(h)));
});

/** The default factory, noting the verdict each client was given. */
function recordingFactory(): { factory: ClientFactory; priors: Map<string, (PriorDiscovery['kind'] | 'none')[]> } {
  const inner = createDefaultClientFactory({ logger: nullLogger, environments: {} });
  const priors = new Map<string, (PriorDiscovery['kind'] | 'none')[]>();
  return {
    priors,
    factory: (cfg, handlers, options) => {
      priors.set(cfg.name, [...(priors.get(cfg.name) ?? []), options?.prior?.kind ?? 'none']);
      return inner(cfg, handlers, options);
    },
  };
}

async function harness(servers: McpServerConfig[], home: string, createClient?: ClientFactory): Promise<Harness> {
  const h = await makeHarness(servers, { home, createClient });
  open.push(h);
  return h;
}

describe('servers of both eras in one manager', () => {
  it('each is spoken to in its own revision, and a warm start needs no probe', async () => {
    const modern = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer({ name: 'modern-http' }) as never });
    open.push(modern);
    const servers = [
      config('modern_http', { url: modern.url }),
      stdio('modern_stdio', 'stdio-v2-server.mjs', { FIXTURE_SERVE: 'modern-only' }),
      stdio('v1', 'stdio-v1-server.mjs'),
      config('everything', { command: process.execPath, args: [EVERYTHING, 'stdio'] }),
    ];
    const home = await tempDir('sb-eras-');
    homes.push(home);
    const first = await harness(servers, home);
    await first.manager.listAllTools({ wait: 'all' });
    const protocols = Object.fromEntries(first.manager.status().map((s) => [s.name, [s.state, s.protocol]]));
    expect(protocols).toEqual({
      modern_http: ['ready', '2026-07-28'],
      modern_stdio: ['ready', '2026-07-28'],
      v1: ['ready', '2025-11-25'],
      everything: ['ready', '2025-11-25'],
    });
    for (const name of ['modern_http', 'modern_stdio', 'v1', 'everything']) {
      const args = name === 'everything' ? { message: `to ${name}` } : { text: `to ${name}` };
      expect(textOf(await first.manager.callTool(`mcp__${name}__echo`, args))).toContain(`to ${name}`);
    }
    await first.close();

    // The snapshots recorded each verdict.
    const snaps = await Promise.all((await readdir(path.join(first.home, 'cache', 'mcp-tools'))).map(async (f) => JSON.parse(await readFile(path.join(first.home, 'cache', 'mcp-tools', f), 'utf8'))));
    expect(Object.fromEntries(snaps.map((s) => [s.server, s.era?.discovery?.kind]))).toEqual({ modern_http: 'modern', modern_stdio: 'modern', v1: 'legacy', everything: 'legacy' });

    const probesBefore = modern.count('server/discover');
    const { factory, priors } = recordingFactory();
    const warm = await harness(servers, first.home, factory);
    await warm.manager.listAllTools({ wait: 'all' });
    expect(Object.fromEntries(priors)).toEqual({ modern_http: ['modern'], modern_stdio: ['modern'], v1: ['legacy'], everything: ['legacy'] });
    expect(modern.count('server/discover')).toBe(probesBefore);
    expect(warm.manager.status().map((s) => [s.name, s.state, s.protocol])).toEqual([
      ['modern_http', 'ready', '2026-07-28'],
      ['modern_stdio', 'ready', '2026-07-28'],
      ['v1', 'ready', '2025-11-25'],
      ['everything', 'ready', '2025-11-25'],
    ]);
    expect(textOf(await warm.manager.callTool('mcp__modern_stdio__echo', { text: 'warm' }))).toBe('warm');
  });

  it('a recorded 2026 verdict that went stale (the server now speaks 2025 only) is dropped after one failed start', async () => {
    const modern = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer() as never });
    const old = await startHttpFixture({ flavor: 'v1', createServer: () => createV1Server() as never });
    open.push(modern, old);
    const home = await tempDir('sb-eras-');
    homes.push(home);
    const probe = await harness([config('web', { url: modern.url })], home);
    await probe.manager.listAllTools({ wait: 'all' });
    const recorded = probe.manager.status()[0]!;
    expect(recorded.protocol).toBe('2026-07-28');
    await probe.close();
    // The manager writes snapshots in the background.
    const store = SnapshotStore.inHome(probe.home, nullLogger);
    let snapshot = await store.load(config('web', { url: modern.url }));
    for (let i = 0; i < 100 && !snapshot?.era; i++) snapshot = await new Promise((r) => setTimeout(r, 20)).then(() => store.load(config('web', { url: modern.url })));
    expect(snapshot?.era?.protocol).toBe('2026-07-28');

    // Same name and a config whose snapshot carries the 2026 verdict, but a 2025-only server behind it.
    const moved = config('web', { url: old.url });
    await store.save(moved, snapshot!.tools, snapshot!.era);
    const { factory, priors } = recordingFactory();
    const warm = await harness([moved], probe.home, factory);
    await warm.manager.listAllTools({ wait: 'all' });
    expect(warm.manager.status()[0]).toMatchObject({ state: 'ready', protocol: '2025-11-25' });
    expect(priors.get('web')).toEqual(['modern', 'none']);
    expect(old.count('server/discover')).toBe(1);
    expect(textOf(await warm.manager.callTool('mcp__web__echo', { text: 'moved' }))).toBe('moved');
  });
});
