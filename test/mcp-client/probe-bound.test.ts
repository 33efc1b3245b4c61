// The 2026-07-28 probe's bound: a stdio server silent on `server/discover` (a 2025 server ignoring an
// unknown request) gets `initialize` after STDIO_PROBE_TIMEOUT_MS, at most half the startup timeout;
// over HTTP silence is an outage and the startup timeout ends it. Real chaos-server processes.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnUrlServer } from '../support/fixture-processes.js';
import { clientPool, NODE, serverConfig, textOf } from './helpers.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const CHAOS = fixtureProgram('chaos-server.ts');
const pool = clientPool();
const stops: (() => void)[] = [];
afterEach(async () => {
  await pool.closeAll();
  for (const stop of stops.splice(0)) stop();
});

describe('a server that never answers server/discover', () => {
  it('on stdio is spoken to with initialize after 5 s, well inside a 30 s startup timeout', async () => {
    const client = pool.create(serverConfig('hang', { command: NODE, args: [CHAOS, '--mode', 'discover-hang'], startup_timeout_sec: 30 }));
    const started = performance.now();
    expect((await client.connect()).protocolVersion).toBe('2025-11-25');
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThanOrEqual(5_000);
    expect(ms).toBeLessThan(15_000);
    expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
  });

  it('on stdio with a 4 s startup timeout waits 2 s for the probe, then starts with initialize', async () => {
    const client = pool.create(serverConfig('hang', { command: NODE, args: [CHAOS, '--mode', 'modern,discover-hang'], startup_timeout_sec: 4 }));
    const started = performance.now();
    expect((await client.connect()).protocolVersion).toBe('2025-11-25');
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('over HTTP fails when the startup timeout ends, as a handshake timeout', async () => {
    const server = await spawnUrlServer(NODE, [CHAOS, '--http', '--mode', 'modern,discover-hang']);
    stops.push(() => server.child.kill('SIGKILL'));
    const client = pool.create(serverConfig('hang', { url: server.url, startup_timeout_sec: 2 }));
    const started = performance.now();
    await expect(client.connect()).rejects.toThrow(/^timed out handshaking with MCP server after 2s/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
