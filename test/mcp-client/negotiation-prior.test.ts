// Era negotiation against servers that speak only 2026-07-28 (HTTP and stdio), a 2025 stdio server
// that exits on the probe, and `prior`: a recorded verdict that makes the probe cost nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { startHttpFixture } from '../fixtures/mcp/http-fixture.js';
import type { HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { waitFor } from '../support/wait.js';
import { capturingLogger, clientPool, fixtureStdio, serverConfig, textOf } from './helpers.js';

const pool = clientPool();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});

async function modernOnlyHttp(): Promise<HttpFixture> {
  const f = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer() as never });
  fixtures.push(f);
  return f;
}

/** How many times the server wrote `text` to stderr (once per process started). */
const banner = (lines: string[], text: string) => lines.filter((l) => l.includes('MCP server stderr') && l.includes(text)).length;

describe('servers that speak only 2026-07-28', () => {
  it('createMcpHandler with legacy: reject over HTTP is negotiated by default; initialize alone gets its HTTP 400', async () => {
    const f = await modernOnlyHttp();
    const client = pool.create(serverConfig('modern', { url: f.url }));
    const ready = await client.connect();
    expect(ready.protocolVersion).toBe('2026-07-28');
    expect(ready.discovery?.kind).toBe('modern');
    expect(textOf(await client.callTool('echo', { text: 'hi 2026' }))).toBe('hi 2026');

    const legacy = pool.create(serverConfig('old', { url: f.url }), {}, { versionNegotiation: 'legacy' });
    const err = await legacy.connect().catch((e: unknown) => e as Error);
    expect(String(err)).toMatch(/HTTP 400.*Unsupported protocol version/s);
  });

  it('serveStdio with legacy: reject over stdio is negotiated on the one process it runs in', async () => {
    const logger = capturingLogger();
    const client = pool.create(fixtureStdio('modern', 'stdio-v2-server.mjs', { env: { FIXTURE_SERVE: 'modern-only', FIXTURE_STDERR_BANNER: 'modern-only up' } }), { logger });
    const ready = await client.connect();
    expect(ready.protocolVersion).toBe('2026-07-28');
    expect(textOf(await client.callTool('echo', { text: 'stdio 2026' }))).toBe('stdio 2026');
    expect(banner(logger.lines, 'modern-only up')).toBe(1);
  });
});

describe('a 2025 stdio server that exits on the probe', () => {
  it('is started once more and spoken to with initialize', async () => {
    const logger = capturingLogger();
    const client = pool.create(fixtureStdio('strict', 'stdio-exit-on-probe-server.mjs'), { logger });
    const ready = await client.connect();
    expect(ready.protocolVersion).toBe('2025-11-25');
    expect(ready.discovery).toEqual({ kind: 'legacy' });
    expect(textOf(await client.callTool('echo', { text: 'after restart' }))).toBe('after restart');
    expect(banner(logger.lines, 'exit-on-probe server started')).toBe(2);
    expect(logger.lines.some((l) => l.includes('failed the 2026-07-28 probe'))).toBe(true);
  });

  it('with a recorded legacy verdict starts once', async () => {
    const logger = capturingLogger();
    const client = pool.create(fixtureStdio('strict', 'stdio-exit-on-probe-server.mjs'), { logger }, { prior: { kind: 'legacy' } });
    expect((await client.connect()).protocolVersion).toBe('2025-11-25');
    expect(banner(logger.lines, 'exit-on-probe server started')).toBe(1);
  });
});

describe('prior: a recorded verdict', () => {
  it('a modern one connects to a 2026-07-28 server without a round trip', async () => {
    const f = await modernOnlyHttp();
    const first = pool.create(serverConfig('modern', { url: f.url }));
    const { discovery } = await first.connect();
    await waitFor(() => f.count('subscriptions/listen') === 1, "the first client's listen stream");
    const before = f.methods.length;
    const warm = pool.create(serverConfig('modern', { url: f.url }), {}, { prior: discovery });
    const ready = await warm.connect();
    // Connecting asked nothing; the change-notification stream opens behind it (subscriptions/listen).
    expect(f.methods.slice(before).filter((m) => m !== 'subscriptions/listen')).toEqual([]);
    expect(ready.protocolVersion).toBe('2026-07-28');
    expect(ready.serverInfo?.name).toBe('fixture-v2');
    expect(textOf(await warm.callTool('echo', { text: 'warm' }))).toBe('warm');
    expect(f.methods.slice(before).sort()).toEqual(['subscriptions/listen', 'tools/call']);
  });

  it('a modern one works over stdio too', async () => {
    const config = fixtureStdio('modern', 'stdio-v2-server.mjs', { env: { FIXTURE_SERVE: 'modern-only' } });
    const { discovery } = await pool.create(config).connect();
    const warm = pool.create(config, {}, { prior: discovery });
    expect((await warm.connect()).protocolVersion).toBe('2026-07-28');
    expect(textOf(await warm.callTool('echo', { text: 'warm stdio' }))).toBe('warm stdio');
  });

  it('a legacy one skips the probe and sends initialize first', async () => {
    const f = await startHttpFixture({ createServer: () => createFixtureServer() as never });
    fixtures.push(f);
    const client = pool.create(serverConfig('web', { url: f.url }), {}, { prior: { kind: 'legacy' } });
    expect((await client.connect()).protocolVersion).toBe('2025-11-25');
    expect(f.methods[0]).toBe('initialize');
    expect(f.count('server/discover')).toBe(0);
  });
});
