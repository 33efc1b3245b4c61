// The gateway's catalog over time: tools/list from startup snapshots while servers start, calls that
// wait for a starting server, list_changed when a server starts, fails, recovers or changes its
// tools, an upstream crash that leaves the gateway serving, and transparent mode's raw names.
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer } from '../mcp/manager-harness.js';
import { startGateway, textOf, upstream, type GatewayHarness, type Note } from './gateway-harness.js';
import { tempDir, removeTree } from '../support/temp.js';
import { waitFor } from '../support/wait.js';

const CALL = { timeout: 60_000 };
const toolsChanged = (n: Note) => n.method === 'notifications/tools/list_changed';

let gateways: GatewayHarness[] = [];
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await Promise.all(dirs.map(removeTree));
  gateways = [];
  dirs = [];
});

async function ownedDir(): Promise<string> {
  const dir = await tempDir('sb-gw-cat-');
  dirs.push(dir);
  return dir;
}

async function gateway(...args: Parameters<typeof startGateway>): Promise<GatewayHarness> {
  const gw = await startGateway(...args);
  gateways.push(gw);
  return gw;
}

async function toolNames(gw: GatewayHarness): Promise<string[]> {
  return (await gw.client.listTools()).tools.map((t) => t.name).sort();
}

/** Resolves once the manager's snapshot file for `server` exists (it is written in the background). */
async function snapshotSaved(home: string, server: string): Promise<void> {
  const dir = path.join(home, 'cache', 'mcp-tools');
  await waitFor(() => existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(`${server}-`)), `a snapshot for ${server}`, 20_000);
}

describe('gateway catalog', () => {
  it('answers tools/list at once from startup snapshots while a server starts; a call waits for it', async () => {
    const home = await ownedDir();
    const knobs = path.join(home, 'knobs.json');
    const slow = fixtureServer('slowpoke', { MGR_KNOBS_FILE: knobs, MGR_TOOLS: 'echo,other' });
    const first = await gateway([slow], { home });
    expect(await toolNames(first)).toContain('mcp__slowpoke__echo');
    await snapshotSaved(home, 'slowpoke');
    await first.close();
    gateways = [];

    // Same config (same snapshot key), but now the server takes 3 s to start.
    await writeFile(knobs, JSON.stringify({ MGR_DELAY_MS: '3000' }));
    const second = await gateway([slow], { home });
    const started = Date.now();
    const names = await toolNames(second);
    const listMs = Date.now() - started;
    expect(names).toEqual(['mcp__slowpoke__add_tool', 'mcp__slowpoke__crash', 'mcp__slowpoke__echo', 'mcp__slowpoke__other']);
    expect(listMs).toBeLessThan(2_000);
    expect(second.pool.upstreams().manager.status()[0]).toMatchObject({ state: 'starting', source: 'snapshot' });
    const r = await second.client.callTool({ name: 'mcp__slowpoke__echo', arguments: { text: 'late' } }, CALL);
    expect(textOf(r)).toBe('slowpoke:echo:late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
  }, 60_000);

  it('sends tools/list_changed when a server starts, fails and recovers; the gateway keeps serving', async () => {
    const home = await ownedDir();
    const knobs = path.join(home, 'flaky-knobs.json');
    await writeFile(knobs, JSON.stringify({ MGR_EXIT_AFTER_MS: '1500' }));
    const gw = await gateway([fixtureServer('steady'), fixtureServer('flaky', { MGR_KNOBS_FILE: knobs })], { home, restart: { initialDelayMs: 100, maxDelayMs: 200 } });
    // First start: both servers' tools arrive, announced.
    await gw.waitForNote(toolsChanged);
    await gw.waitForEvent((e) => e.type === 'mcp_startup_complete');
    expect(await toolNames(gw)).toEqual(expect.arrayContaining(['mcp__steady__echo', 'mcp__flaky__echo']));
    // The next start of flaky is healthy but slow, so its absence can be observed.
    await writeFile(knobs, JSON.stringify({ MGR_DELAY_MS: '1500' }));

    const removed = await gw.waitForEvent((e) => e.type === 'mcp_tools_changed' && e.server === 'flaky' && e.removed.includes('echo'));
    await gw.waitForNote(toolsChanged, { after: gw.notesAt(removed) });
    const during = await toolNames(gw);
    expect(during).toContain('mcp__steady__echo');
    expect(during).not.toContain('mcp__flaky__echo');
    // The other server is unaffected, and a call to the failed one fails as a result, not a crash.
    expect(textOf(await gw.client.callTool({ name: 'mcp__steady__echo', arguments: { text: 'still here' } }, CALL))).toBe('steady:echo:still here');

    const added = await gw.waitForEvent((e) => e.type === 'mcp_tools_changed' && e.server === 'flaky' && e.added.includes('echo') && gw.events.indexOf(e) > gw.events.indexOf(removed));
    await gw.waitForNote(toolsChanged, { after: gw.notesAt(added) });
    expect(await toolNames(gw)).toContain('mcp__flaky__echo');
    expect(textOf(await gw.client.callTool({ name: 'mcp__flaky__echo', arguments: { text: 'back' } }, CALL))).toBe('flaky:echo:back');
  }, 60_000);

  it('a server that crashed and was given up on leaves the catalog; the rest keeps working', async () => {
    const gw = await gateway([fixtureServer('steady'), fixtureServer('crashy')], { restart: { crashLimit: 1 } });
    await gw.waitForEvent((e) => e.type === 'mcp_startup_complete');
    await gw.client.callTool({ name: 'mcp__crashy__crash', arguments: {} }, CALL).catch(() => undefined);
    await gw.waitForEvent((e) => e.type === 'mcp_startup_update' && e.server === 'crashy' && e.status.state === 'failed');
    const r = await gw.client.callTool({ name: 'mcp__steady__echo', arguments: { text: 'ok' } }, CALL);
    expect(textOf(r)).toBe('steady:echo:ok');
    // Its tools left the catalog, so the name is unknown now; the error says which server is down and why.
    await expect(gw.client.callTool({ name: 'mcp__crashy__echo', arguments: {} }, CALL)).rejects.toThrow(
      /Unknown tool: mcp__crashy__echo: MCP server 'crashy' is unavailable: .*gave up after 1 crash/,
    );
    expect(await toolNames(gw)).not.toContain('mcp__crashy__echo');
  }, 60_000);

  it("passes an upstream's own tools/list_changed on with the new tool in the catalog", async () => {
    const gw = await gateway([fixtureServer('grower')]);
    await gw.waitForEvent((e) => e.type === 'mcp_startup_complete');
    await gw.client.callTool({ name: 'mcp__grower__add_tool', arguments: { name: 'sprout' } }, CALL);
    const grown = await gw.waitForEvent((e) => e.type === 'mcp_tools_changed' && e.added.includes('sprout'));
    await gw.waitForNote(toolsChanged, { after: gw.notesAt(grown) });
    expect(await toolNames(gw)).toContain('mcp__grower__sprout');
    expect(textOf(await gw.client.callTool({ name: 'mcp__grower__sprout', arguments: { text: 'x' } }, CALL))).toBe('grower:sprout:x');
  }, 60_000);
});

describe('transparent gateway', () => {
  it('keeps raw tool and prompt names, adds nothing to resources, and lets the upstream judge unknown names', async () => {
    const gw = await gateway([upstream('only')], { mode: { kind: 'transparent', server: 'only' } });
    const names = await toolNames(gw);
    expect(names).toContain('echo');
    expect(names.some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(textOf(await gw.client.callTool({ name: 'echo', arguments: { text: 'raw' } }, CALL))).toBe('only:raw');
    const { prompts } = await gw.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['greet']);
    expect((await gw.client.getPrompt({ name: 'greet', arguments: { who: 'grace' } })).messages[0]?.content).toEqual({ type: 'text', text: 'only greets grace' });
    const completion = await gw.client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'g' } });
    expect(completion.completion.values).toEqual(['grace']);
    const { resources } = await gw.client.listResources();
    expect(resources.every((r) => r._meta === undefined)).toBe(true);
    // The upstream's own answer for a tool it does not have.
    const unknown = await gw.client.callTool({ name: 'nope', arguments: {} }, CALL).then(
      (r) => textOf(r),
      (err: Error) => err.message,
    );
    expect(unknown).toMatch(/nope/);
  }, 60_000);

  it('answers a call to its upstream while that server is down with an error result, and stays up', async () => {
    const gw = await gateway([fixtureServer('solo')], { mode: { kind: 'transparent', server: 'solo' }, restart: { crashLimit: 1 } });
    expect(textOf(await gw.client.callTool({ name: 'echo', arguments: { text: 'a' } }, CALL))).toBe('solo:echo:a');
    await gw.client.callTool({ name: 'crash', arguments: {} }, CALL).catch(() => undefined);
    await gw.waitForEvent((e) => e.type === 'mcp_startup_update' && e.server === 'solo' && e.status.state === 'failed');
    const down = await gw.client.callTool({ name: 'echo', arguments: { text: 'b' } }, CALL);
    expect(down.isError).toBe(true);
    expect(textOf(down)).toMatch(/MCP server 'solo' is unavailable/);
    expect(await gw.client.ping()).toEqual({});
  }, 60_000);
});
