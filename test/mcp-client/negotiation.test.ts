// versionNegotiation 'auto': probe with the 2026-07-28 server/discover, fall back to initialize for
// 2025-era peers (SDK v1 servers), over stdio and Streamable HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { createV1Server } from '../fixtures/mcp/v1-server.mjs';
import { startHttpFixture } from '../fixtures/mcp/http-fixture.js';
import type { HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { clientPool, fixtureStdio, serverConfig, textOf } from './helpers.js';

const pool = clientPool();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});

describe("versionNegotiation: 'auto'", () => {
  it.each([
    ['SDK v2', 'stdio-v2-server.mjs'],
    ['SDK v1', 'stdio-v1-server.mjs'],
  ])('falls back to initialize with a %s server over stdio', async (_label, file) => {
    const client = pool.create(fixtureStdio('fx', file), {}, { versionNegotiation: 'auto' });
    const ready = await client.connect();
    expect(ready.protocolVersion).toBe('2025-11-25');
    expect(textOf(await client.callTool('echo', { text: 'negotiated' }))).toBe('negotiated');
  });

  it.each(['v2', 'v1'] as const)('falls back to initialize with an SDK %s server over Streamable HTTP', async (flavor) => {
    const f = await startHttpFixture({ flavor, createServer: () => (flavor === 'v1' ? createV1Server() : createFixtureServer()) as never });
    fixtures.push(f);
    const client = pool.create(serverConfig('web', { url: f.url }), {}, { versionNegotiation: 'auto' });
    const ready = await client.connect();
    expect(ready.protocolVersion).toBe('2025-11-25');
    expect(textOf(await client.callTool('echo', { text: 'negotiated' }))).toBe('negotiated');
  });

  it('negotiates the 2026-07-28 era with a factory-served v2 server over stdio', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs', { env: { FIXTURE_SERVE: 'factory' } }), {}, { versionNegotiation: 'auto' });
    const ready = await client.connect();
    expect(ready.protocolVersion).toBe('2026-07-28');
    expect(ready.serverInfo?.name).toBe('fixture-v2');
    expect(textOf(await client.callTool('echo', { text: 'modern' }))).toBe('modern');
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['memo://note']);
  });

  it('negotiates the 2026-07-28 era with a createMcpHandler server over HTTP, and still speaks legacy to it', async () => {
    const f = await startHttpFixture({ flavor: 'modern', createServer: () => createFixtureServer() as never });
    fixtures.push(f);
    const auto = pool.create(serverConfig('web', { url: f.url }), {}, { versionNegotiation: 'auto' });
    expect((await auto.connect()).protocolVersion).toBe('2026-07-28');
    expect(textOf(await auto.callTool('echo', { text: 'modern http' }))).toBe('modern http');
    const legacy = pool.create(serverConfig('web2', { url: f.url }), {}, { versionNegotiation: 'legacy' });
    expect((await legacy.connect()).protocolVersion).not.toBe('2026-07-28');
    expect(textOf(await legacy.callTool('echo', { text: 'legacy http' }))).toBe('legacy http');
  });

  it("'legacy' sends initialize first, as Codex does", async () => {
    const f = await startHttpFixture({ createServer: () => createFixtureServer() as never });
    fixtures.push(f);
    const client = pool.create(serverConfig('web', { url: f.url }), {}, { versionNegotiation: 'legacy' });
    await client.connect();
    expect(f.methods[0]).toBe('initialize');
  });

  it("'auto' is the default: the probe goes first, then initialize for a 2025 server", async () => {
    const f = await startHttpFixture({ createServer: () => createFixtureServer() as never });
    fixtures.push(f);
    const client = pool.create(serverConfig('web', { url: f.url }));
    expect((await client.connect()).discovery).toEqual({ kind: 'legacy' });
    expect(f.methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
  });
});
