// McpConnectionManager catalog: collision-free names independent of start order, routing, filters,
// metadata policy, list_changed refreshes, startup snapshots, and a 10,000-tool server.
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, isUpdate, makeHarness, textOf, type Harness } from './manager-harness.js';
import { tempDir, removeTree } from '../support/temp.js';

const harnesses: Harness[] = [];
const dirs: string[] = [];
async function harness(...args: Parameters<typeof makeHarness>): Promise<Harness> {
  const h = await makeHarness(...args);
  harnesses.push(h);
  return h;
}
async function ownedDir(): Promise<string> {
  const d = await tempDir('sb-cat-');
  dirs.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
  await Promise.all(dirs.splice(0).map(removeTree));
});

const LONG = 'a_tool_name_that_is_long_enough_to_push_the_qualified_name_past_sixty_four_bytes';

describe('McpConnectionManager catalog', () => {
  it('gives duplicate and over-long names unique ≤ 64-byte names, the same whatever order servers became ready, each routing correctly', async () => {
    // `s` offers `a__b`, `s__a` offers `b`: both sanitise to mcp__s__a__b. Plus sanitised and long names.
    const tools = { s: `a__b,t.x,t_x,${LONG}`, s__a: `b,${LONG}` };
    const run = async (slow: keyof typeof tools) => {
      const h = await harness(
        Object.entries(tools).map(([name, list]) => fixtureServer(name, { MGR_TOOLS: list, ...(name === slow ? { MGR_DELAY_MS: '400' } : {}) })),
        { snapshots: false },
      );
      const entries = await h.manager.listAllTools({ wait: 'all' });
      return { h, entries: entries.filter((e) => e.tool !== 'add_tool' && e.tool !== 'crash') };
    };
    const first = await run('s');
    const second = await run('s__a');
    const key = (e: { server: string; tool: string; name: string }) => `${e.server}/${e.tool}=${e.name}`;
    expect(first.entries.map(key)).toEqual(second.entries.map(key));
    const names = first.entries.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) {
      expect(Buffer.byteLength(n)).toBeLessThanOrEqual(64);
      expect(n).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    const collided = first.entries.filter((e) => (e.server === 's' && e.tool === 'a__b') || (e.server === 's__a' && e.tool === 'b'));
    expect(collided.every((e) => /^mcp__s__a__b_[0-9a-f]{12}$/.test(e.name))).toBe(true);
    for (const e of first.entries) {
      expect(textOf(await first.h.manager.callTool(e.name, { text: 'r' }))).toBe(`${e.server}:${e.tool}:r`);
    }
  });

  it('holds no tools once closed: the catalog is rebuilt once after every server has closed', async () => {
    const h = await harness([fixtureServer('a', { MGR_TOOLS: 'one,two' }), fixtureServer('b', { MGR_TOOLS: 'three' })], { snapshots: false });
    expect((await h.manager.listAllTools({ wait: 'all' })).map((e) => e.tool)).toEqual(expect.arrayContaining(['one', 'two', 'three']));
    await h.manager.close();
    expect(await h.manager.listAllTools({ start: false })).toEqual([]);
  });

  it('applies the tool filter when listing and when calling', async () => {
    const h = await harness([fixtureServer('f', { MGR_TOOLS: 'keep,drop,other' }, { enabled_tools: ['keep', 'drop'], disabled_tools: ['drop'] })]);
    const entries = await h.manager.listAllTools({ wait: 'all' });
    expect(entries.map((e) => e.tool)).toEqual(['keep']);
    await expect(h.manager.callServerTool('f', 'drop', {})).rejects.toThrow("tool 'drop' is disabled for MCP server 'f'");
    await expect(h.manager.callServerTool('f', 'other', {})).rejects.toThrow("tool 'other' is disabled for MCP server 'f'");
    expect(h.manager.status()[0]).toMatchObject({ tools: 1 });
  });

  it('strips connector metadata from untrusted servers and hides tools not visible to the model', async () => {
    const meta = JSON.stringify({ connector_id: 'gmail', connector_name: 'Gmail', connectorDescription: 'x', custom: 'kept' });
    const h = await harness([fixtureServer('apps', { MGR_TOOL_META: meta }), fixtureServer('trusted', { MGR_TOOL_META: meta }), fixtureServer('hidden', { MGR_TOOL_META: JSON.stringify({ ui: { visibility: ['app'] } }) })], {
      trusted: ['trusted'],
    });
    const entries = await h.manager.listAllTools({ wait: 'all' });
    const echo = (server: string) => entries.find((e) => e.server === server && e.tool === 'echo');
    expect(echo('apps')!.definition._meta).toEqual({ custom: 'kept' });
    expect(echo('trusted')!.definition._meta).toMatchObject({ connector_id: 'gmail', custom: 'kept' });
    expect(echo('hidden')).toBeUndefined();
  });

  it('re-fetches on tools/list_changed, swaps the list and emits mcp_tools_changed', async () => {
    const h = await harness([fixtureServer('dyn')]);
    await h.manager.waitForStartup();
    expect(textOf(await h.manager.callTool('mcp__dyn__add_tool', { name: 'fresh' }))).toBe('added fresh');
    const changed = await h.waitFor((e) => e.type === 'mcp_tools_changed' && e.server === 'dyn' && e.added.includes('fresh'));
    expect(changed).toEqual({ type: 'mcp_tools_changed', server: 'dyn', added: ['fresh'], removed: [], changed: [] });
    expect(textOf(await h.manager.callTool('mcp__dyn__fresh', { text: 'new' }))).toBe('dyn:fresh:new');
  });

  it('reads the list again when its list_changed came as the first list was answered, before the server was ready', async () => {
    const h = await harness([fixtureServer('late', { MGR_ADD_AFTER_LIST: 'late_tool' })]);
    await h.manager.waitForStartup();
    const changed = await h.waitFor((e) => e.type === 'mcp_tools_changed' && e.server === 'late' && e.added.includes('late_tool'));
    expect(changed).toEqual({ type: 'mcp_tools_changed', server: 'late', added: ['late_tool'], removed: [], changed: [] });
    expect(textOf(await h.manager.callTool('mcp__late__late_tool', { text: 'x' }))).toBe('late:late_tool:x');
  });

  it('serves the snapshot while a server starts, then replaces it with the live list and says what changed', async () => {
    const home = await ownedDir();
    const knobs = path.join(home, 'knobs.json');
    await writeFile(knobs, JSON.stringify({ MGR_TOOLS: 'alpha,beta' }));
    const server = fixtureServer('snap', { MGR_KNOBS_FILE: knobs });
    const first = await harness([server], { home });
    await first.manager.waitForStartup();
    await first.close();
    harnesses.splice(harnesses.indexOf(first), 1);
    expect((await readdir(path.join(home, 'cache', 'mcp-tools'))).length).toBe(1);

    await writeFile(knobs, JSON.stringify({ MGR_TOOLS: 'alpha,gamma', MGR_DELAY_MS: '1500' }));
    const second = await harness([server], { home });
    second.manager.start();
    const started = performance.now();
    const early = await second.manager.listAllTools({ wait: 'none' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(early.map((e) => [e.tool, e.source])).toEqual(expect.arrayContaining([['alpha', 'snapshot'], ['beta', 'snapshot']]));
    const changed = await second.waitFor((e) => e.type === 'mcp_tools_changed' && e.server === 'snap' && e.added.includes('gamma'));
    expect(changed).toMatchObject({ added: ['gamma'], removed: ['beta'] });
    const live = await second.manager.listAllTools({ wait: 'none' });
    expect(live.every((e) => e.source === 'live')).toBe(true);
    expect(live.map((e) => e.tool)).toEqual(expect.arrayContaining(['alpha', 'gamma']));
    expect(live.map((e) => e.tool)).not.toContain('beta');
  });

  it('a later start of a server whose list did not change leaves its snapshot file as it was; a changed list rewrites it', async () => {
    const home = await ownedDir();
    const knobs = path.join(home, 'knobs.json');
    await writeFile(knobs, JSON.stringify({ MGR_TOOLS: 'alpha,beta' }));
    const server = fixtureServer('kept', { MGR_KNOBS_FILE: knobs });
    const dir = path.join(home, 'cache', 'mcp-tools');
    // Every write renames a new file over the old one: a new inode.
    const snapshot = async () => {
      const [file, ...others] = await readdir(dir);
      expect(others).toEqual([]);
      return { file, inode: (await stat(path.join(dir, file!))).ino };
    };
    const run = async () => {
      const h = await harness([server], { home });
      const tools = (await h.manager.listAllTools({ wait: 'all' })).filter((e) => e.source === 'live').map((e) => e.tool);
      await h.close();
      harnesses.splice(harnesses.indexOf(h), 1);
      return tools;
    };
    expect(await run()).toEqual(expect.arrayContaining(['alpha', 'beta']));
    const written = await snapshot();
    expect(await run()).toEqual(expect.arrayContaining(['alpha', 'beta']));
    expect(await snapshot()).toEqual(written);

    await writeFile(knobs, JSON.stringify({ MGR_TOOLS: 'alpha,gamma' }));
    expect(await run()).toEqual(expect.arrayContaining(['alpha', 'gamma']));
    const rewritten = await snapshot();
    expect(rewritten.file).toBe(written.file);
    expect(rewritten.inode).not.toBe(written.inode);
  });

  it('a call to a tool known only from the snapshot waits for its server, then runs or fails clearly', async () => {
    const home = await ownedDir();
    const knobs = path.join(home, 'knobs.json');
    await writeFile(knobs, JSON.stringify({ MGR_TOOLS: 'stays,goes' }));
    const server = fixtureServer('w', { MGR_KNOBS_FILE: knobs });
    const first = await harness([server], { home });
    await first.manager.waitForStartup();
    await first.close();
    harnesses.splice(harnesses.indexOf(first), 1);
    await writeFile(knobs, JSON.stringify({ MGR_TOOLS: 'stays', MGR_DELAY_MS: '800' }));
    const second = await harness([server], { home });
    second.manager.start();
    await second.manager.listAllTools({ wait: 'none' });
    const [ran, gone] = await Promise.allSettled([
      second.manager.callTool('mcp__w__stays', { text: 'ok' }),
      second.manager.callTool('mcp__w__goes', { text: 'no' }),
    ]);
    expect(ran.status === 'fulfilled' && textOf(ran.value)).toBe('w:stays:ok');
    expect(gone.status === 'rejected' && String(gone.reason)).toContain("MCP server 'w' no longer offers tool 'goes'");
  });

  it('ignores a corrupt snapshot', async () => {
    const home = await ownedDir();
    const knobs = path.join(home, 'knobs.json');
    const server = fixtureServer('c', { MGR_KNOBS_FILE: knobs });
    const first = await harness([server], { home });
    await first.manager.waitForStartup();
    await first.close();
    harnesses.splice(harnesses.indexOf(first), 1);
    const dir = path.join(home, 'cache', 'mcp-tools');
    for (const f of await readdir(dir)) await writeFile(path.join(dir, f), '{"schema_version": 1, "tools": [tru');
    await writeFile(knobs, JSON.stringify({ MGR_DELAY_MS: '300' }));
    const second = await harness([server], { home });
    second.manager.start();
    expect(await second.manager.listAllTools({ wait: 'none' })).toEqual([]);
    await second.waitFor(isUpdate('c', 'ready'));
    expect((await second.manager.listAllTools({ wait: 'none' })).map((e) => e.tool)).toContain('echo');
  });

  it('handles a server with 10,000 tools (the list limit), and fails one with more clearly', { timeout: 90_000 }, async () => {
    // 9,998 generated tools plus the fixture's add_tool and crash: exactly 10,000.
    const h = await harness([fixtureServer('big', { MGR_TOOL_COUNT: '9998', MGR_TOOLS: '' }), fixtureServer('bigger', { MGR_TOOL_COUNT: '9999', MGR_TOOLS: '' }), fixtureServer('small')]);
    const summary = await h.manager.waitForStartup();
    expect(summary.failed).toEqual([{ server: 'bigger', error: 'MCP startup failed: tools/list exceeded item limit' }]);
    const entries = await h.manager.listAllTools({ wait: 'none' });
    expect(entries.filter((e) => e.server === 'big')).toHaveLength(10_000);
    expect(textOf(await h.manager.callTool('mcp__big__tool_9997', { text: 'last' }))).toBe('big:tool_9997:last');
  });

  it('suggests close names for an unknown tool', async () => {
    const h = await harness([fixtureServer('docs', { MGR_TOOLS: 'search' })]);
    await h.manager.waitForStartup();
    await expect(h.manager.callTool('mcp__docs__serch', {})).rejects.toThrow("unknown MCP tool 'mcp__docs__serch' (did you mean 'mcp__docs__search'");
  });
});
