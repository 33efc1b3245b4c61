// McpConnectionManager.reload against real stdio servers: unchanged servers keep their process,
// in-place settings keep it too, a server reached differently gets a new process once its running
// calls finished (or were cancelled after the drain timeout, saying why), removed servers leave the
// catalog, added ones start in the background, and a call waiting for a replaced server follows it.
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../src/config/index.js';
import { fixtureServer, isUpdate, makeHarness, textOf, type Harness } from './manager-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const proc = { MGR_PROCESS_TOOLS: '1' };
const byName = (...servers: McpServerConfig[]) => Object.fromEntries(servers.map((s) => [s.name, s]));

async function pidOf(harness: Harness, server: string): Promise<string> {
  return textOf(await harness.manager.callServerTool(server, 'pid', {}));
}

/** Whether a process with this id runs. */
function alive(pid: string): boolean {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
}

describe('McpConnectionManager.reload', () => {
  it('keeps unchanged servers, restarts a changed one after its running call, drops a removed one and starts an added one', async () => {
    const keep = fixtureServer('keep', proc);
    const change = fixtureServer('change', proc);
    const gone = fixtureServer('gone', proc);
    h = await makeHarness([keep, change, gone]);
    const harness = h;
    h.manager.start();
    await h.manager.waitForStartup();
    const [keepPid, changePid, gonePid] = await Promise.all([pidOf(h, 'keep'), pidOf(h, 'change'), pidOf(h, 'gone')]);

    const running = h.manager.callServerTool('change', 'sleep', { ms: 1_500 });
    // Let the call reach the server before the reload.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const changed = fixtureServer('change', { ...proc, MGR_TOOLS: 'echo,extra' });
    const added = fixtureServer('added', proc);
    const result = h.manager.reload(byName(keep, changed, added));
    expect(result).toMatchObject({ added: ['added'], removed: ['gone'], restarted: ['change'], updated: [], unchanged: ['keep'] });
    expect(h.manager.serverNames()).toEqual(['keep', 'change', 'added']);
    // The removed server's tools left the catalog at once; the changed one's old list stands in while it restarts.
    const names = (await h.manager.listAllTools({ wait: 'none' })).map((t) => t.name);
    expect(names.filter((n) => n.startsWith('mcp__gone__'))).toEqual([]);
    expect(names).toContain('mcp__change__echo');
    expect(h.events).toContainEqual({ type: 'mcp_tools_changed', server: 'gone', added: [], removed: expect.arrayContaining(['echo', 'pid', 'sleep']), changed: [] });

    // The call running on the old process completes there.
    expect(textOf(await running)).toBe('slept 1500');
    await result.drained;
    expect(alive(changePid)).toBe(false);
    expect(alive(gonePid)).toBe(false);

    await h.waitFor(isUpdate('added', 'ready'), 20_000);
    await h.waitFor((e) => e.type === 'mcp_tools_changed' && e.server === 'change' && e.added.includes('extra'), 20_000);
    expect(await pidOf(h, 'keep')).toBe(keepPid);
    const newPid = await pidOf(h, 'change');
    expect(newPid).not.toBe(changePid);
    expect(textOf(await h.manager.callTool('mcp__change__extra', { text: 'x' }))).toBe('change:extra:x');
    expect(textOf(await h.manager.callTool('mcp__added__echo', { text: 'y' }))).toBe('added:echo:y');
    await expect(h.manager.callServerTool('gone', 'echo', {})).rejects.toThrow(/unknown MCP server 'gone'/);
    expect(harness.manager.status().map((s) => [s.name, s.state])).toEqual([['keep', 'ready'], ['change', 'ready'], ['added', 'ready']]);
  });

  it('applies a tool filter in place: same process, the tool leaves the catalog and calls to it are refused', async () => {
    const server = fixtureServer('filtered', { ...proc, MGR_TOOLS: 'echo,secret' });
    h = await makeHarness([server]);
    h.manager.start();
    await h.manager.waitForStartup();
    const pid = await pidOf(h, 'filtered');
    const result = h.manager.reload(byName(fixtureServer('filtered', { ...proc, MGR_TOOLS: 'echo,secret' }, { disabled_tools: ['secret'] })));
    expect(result).toMatchObject({ updated: ['filtered'], restarted: [], unchanged: [] });
    expect(h.events).toContainEqual({ type: 'mcp_tools_changed', server: 'filtered', added: [], removed: ['secret'], changed: [] });
    expect((await h.manager.listAllTools({ wait: 'none' })).map((t) => t.name)).not.toContain('mcp__filtered__secret');
    await expect(h.manager.callServerTool('filtered', 'secret', {})).rejects.toThrow("tool 'secret' is disabled for MCP server 'filtered'");
    expect(await pidOf(h, 'filtered')).toBe(pid);
    // And back: the tool returns without a restart either.
    h.manager.reload(byName(server));
    expect(textOf(await h.manager.callTool('mcp__filtered__secret', { text: 's' }))).toBe('filtered:secret:s');
    expect(await pidOf(h, 'filtered')).toBe(pid);
  });

  it('cancels a call still running after the drain timeout, saying why, and closes the old process', async () => {
    const server = fixtureServer('slow', proc);
    h = await makeHarness([server]);
    h.manager.start();
    await h.manager.waitForStartup();
    const pid = await pidOf(h, 'slow');
    const running = h.manager.callServerTool('slow', 'sleep', { ms: 30_000 }).then(
      () => 'completed',
      (err: unknown) => err,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const result = h.manager.reload(byName(fixtureServer('slow', proc, { tool_timeout_sec: 120 })), { drainTimeoutMs: 300 });
    expect(result.restarted).toEqual(['slow']);
    const outcome = await running;
    expect(outcome).toMatchObject({
      code: 'cancelled',
      message: "MCP server 'slow' was restarted to apply a configuration change, and this call did not finish within the 0.3 s drain timeout (mcp_reload_drain_timeout_ms)",
    });
    await result.drained;
    expect(alive(pid)).toBe(false);
    expect(await pidOf(h, 'slow')).not.toBe(pid);
  });

  it('hands a call waiting for a starting server to the server that replaced it', async () => {
    h = await makeHarness([fixtureServer('late', { ...proc, MGR_DELAY_MS: '1500' })]);
    h.manager.start();
    await h.waitFor(isUpdate('late', 'starting'));
    const waiting = h.manager.callServerTool('late', 'echo', { text: 'w' });
    const result = h.manager.reload(byName(fixtureServer('late', proc)));
    expect(result.restarted).toEqual(['late']);
    expect(textOf(await waiting)).toBe('late:echo:w');
    await result.drained;
  });

  it('leaves a lazy server that was never used idle, and starts an eager server added before start() only with start()', async () => {
    const lazy = fixtureServer('lazy', proc, { startup_mode: 'lazy' });
    h = await makeHarness([lazy]);
    const before = h.manager.reload(byName(lazy, fixtureServer('early', proc)));
    expect(before.added).toEqual(['early']);
    expect(h.manager.status().map((s) => [s.name, s.state])).toEqual([['lazy', 'idle'], ['early', 'idle']]);
    h.manager.start();
    await h.manager.waitForStartup();
    expect(h.manager.status().map((s) => [s.name, s.state])).toEqual([['lazy', 'idle'], ['early', 'ready']]);
    h.manager.reload(byName(lazy, fixtureServer('early', proc)));
    expect(h.manager.status()[0]!.state).toBe('idle');
  });
});
