// Upstream failures as status lines: each failure the manager reports (failed start, stopped after
// being ready) reaches the gateway's client once, as notifications/message at level error from the
// logger "switchboard" with the manager's own text, honours logging/setLevel, and is logged.
import { afterEach, describe, expect, it } from 'vitest';
import type { McpManagerEvent } from '../../src/mcp/index.js';
import { createLogger } from '../../src/util/index.js';
import { fixtureServer } from '../mcp/manager-harness.js';
import { startGateway, type GatewayHarness, type Note } from './gateway-harness.js';

const CALL = { timeout: 60_000 };

let gateways: GatewayHarness[] = [];
afterEach(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  gateways = [];
});

async function gateway(...args: Parameters<typeof startGateway>): Promise<GatewayHarness> {
  const gw = await startGateway(...args);
  gateways.push(gw);
  return gw;
}

const statusLines = (gw: GatewayHarness) => gw.notes.filter((n) => n.method === 'notifications/message' && n.params?.logger === 'switchboard');
const failedEvents = (gw: GatewayHarness, server: string) =>
  gw.events.flatMap((e) => (e.type === 'mcp_startup_update' && e.server === server && e.status.state === 'failed' ? [e.status.error] : []));
const line = (server: string, text: string): Note => ({
  method: 'notifications/message',
  params: { level: 'error', logger: 'switchboard', data: text, _meta: { 'switchboard/server': server } },
});

/** Waits until `server` has reported `n` failures (the manager's events). */
async function failures(gw: GatewayHarness, server: string, n: number): Promise<string[]> {
  await gw.waitForEvent(() => failedEvents(gw, server).length >= n, 30_000);
  // A round trip: every notification sent before it has arrived.
  await gw.client.ping();
  return failedEvents(gw, server);
}

function recordingLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger((l) => lines.push(l), { level: 'info' }) };
}

describe('gateway: upstream failures as status lines', () => {
  it('a server that fails to start: one error line with the manager’s text, logged; retries failing the same way add none', async () => {
    const { lines, logger } = recordingLogger();
    const gw = await gateway([fixtureServer('steady'), fixtureServer('broken', { MGR_EXIT_AT_START: '2' })], { logger, restart: { initialDelayMs: 50, maxDelayMs: 50 } });
    const texts = await failures(gw, 'broken', 3);
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).toMatch(/^MCP client for `broken` failed to start: MCP startup failed: MCP server `[^`]*node` exited with code 2/);
    expect(statusLines(gw)).toEqual([line('broken', texts[0]!)]);
    expect(lines.filter((l) => l.includes(`gateway: ${texts[0]!.split('\n')[0]}`))).toHaveLength(1);
    // The healthy server is untouched.
    expect((await gw.client.callTool({ name: 'mcp__steady__echo', arguments: { text: 'hi' } }, CALL)).isError).toBeFalsy();
  }, 60_000);

  it('a crash after being ready: one "stopped after being ready" line per crash; the recovery in between re-arms it', async () => {
    const gw = await gateway([fixtureServer('crashy')], { restart: { initialDelayMs: 100, maxDelayMs: 100 } });
    await gw.waitForEvent((e) => e.type === 'mcp_startup_complete');
    for (let crash = 1; crash <= 2; crash++) {
      await gw.waitForEvent(() => readyCount(gw.events, 'crashy') >= crash, 30_000);
      await gw.client.callTool({ name: 'mcp__crashy__crash', arguments: {} }, CALL).catch(() => undefined);
      await failures(gw, 'crashy', crash);
    }
    const texts = failedEvents(gw, 'crashy');
    expect(texts).toEqual([expect.stringMatching(/^MCP server `crashy` stopped after being ready \(restarting in 100ms\): /), expect.anything()]);
    expect(statusLines(gw)).toEqual(texts.map((t) => line('crashy', t)));
  }, 60_000);

  it('honours logging/setLevel: above error the line is not sent (it is still logged); at error it is', async () => {
    const { lines, logger } = recordingLogger();
    const gw = await gateway([fixtureServer('crashy')], { logger, restart: { initialDelayMs: 100, maxDelayMs: 100 } });
    await gw.waitForEvent((e) => e.type === 'mcp_startup_complete');
    await gw.client.setLoggingLevel('critical');
    await gw.client.callTool({ name: 'mcp__crashy__crash', arguments: {} }, CALL).catch(() => undefined);
    const [first] = await failures(gw, 'crashy', 1);
    expect(statusLines(gw)).toEqual([]);
    expect(lines.some((l) => l.includes(`gateway: ${first!.split('\n')[0]}`))).toBe(true);

    await gw.client.setLoggingLevel('error');
    await gw.waitForEvent(() => readyCount(gw.events, 'crashy') >= 2, 30_000);
    await gw.client.callTool({ name: 'mcp__crashy__crash', arguments: {} }, CALL).catch(() => undefined);
    const texts = await failures(gw, 'crashy', 2);
    expect(statusLines(gw)).toEqual([line('crashy', texts[1]!)]);
  }, 60_000);
});

function readyCount(events: McpManagerEvent[], server: string): number {
  return events.filter((e) => e.type === 'mcp_startup_update' && e.server === server && e.status.state === 'ready').length;
}
