// McpConnectionManager startup: parallel, isolated, timed out with Codex's hint, restarted with
// backoff, given up after the crash limit, required servers, lazy servers.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, isComplete, isUpdate, makeHarness, textOf, type Harness } from './manager-harness.js';
import { tempDir } from '../support/temp.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('McpConnectionManager startup', () => {
  it('starts servers in parallel: five servers of 2 s each are ready well before 10 s', async () => {
    // In series this takes over 10 s; in parallel 2 s plus process start-up, which a loaded machine stretches.
    const servers = ['a', 'b', 'c', 'd', 'e'].map((n) => fixtureServer(n, { MGR_DELAY_MS: '2000' }));
    h = await makeHarness(servers);
    const started = performance.now();
    h.manager.start();
    const summary = await h.manager.waitForStartup();
    const elapsed = performance.now() - started;
    expect(summary.ready.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(elapsed).toBeLessThan(8_000);
    const tools = await h.manager.listAllTools({ wait: 'none' });
    expect(tools.filter((t) => t.tool === 'echo').map((t) => t.name).sort()).toEqual(servers.map((s) => `mcp__${s.name}__echo`));
  });

  it('returns from start() at once and emits starting, then one outcome per server, then complete', async () => {
    h = await makeHarness([fixtureServer('ok'), fixtureServer('slow', { MGR_DELAY_MS: '300' })]);
    const before = performance.now();
    h.manager.start();
    expect(performance.now() - before).toBeLessThan(250); // the slow server alone takes 300 ms
    await h.waitFor(isComplete);
    const updates = h.events.filter((e) => e.type === 'mcp_startup_update');
    for (const name of ['ok', 'slow']) {
      expect(updates.filter((e) => e.server === name).map((e) => e.status.state)).toEqual(['starting', 'ready']);
    }
    expect(h.events.at(-1)).toEqual({ type: 'mcp_startup_complete', ready: expect.arrayContaining(['ok', 'slow']), failed: [], cancelled: [] });
  });

  it('times a hanging server out with the startup_timeout_sec hint while the others are ready', async () => {
    h = await makeHarness([fixtureServer('hang', { MGR_HANG: '1' }, { startup_timeout_sec: 1 }), fixtureServer('fine')]);
    h.manager.start();
    const fine = await h.waitFor(isUpdate('fine', 'ready'), 10_000);
    expect(fine).toBeDefined();
    const failed = await h.waitFor(isUpdate('hang', 'failed'), 10_000);
    expect(failed.type === 'mcp_startup_update' && failed.status.state === 'failed' && failed.status.error).toBe(
      'MCP client for `hang` timed out after 1 seconds. Add or adjust `startup_timeout_sec` in your config.toml:\n[mcp_servers.hang]\nstartup_timeout_sec = XX',
    );
    const complete = await h.waitFor(isComplete);
    expect(complete).toMatchObject({ ready: ['fine'], failed: [{ server: 'hang', error: expect.stringMatching(/^MCP startup failed: .*timed out/) }] });
    // Calls to the failed server's tools fail at once; the healthy one works.
    expect(textOf(await h.manager.callTool('mcp__fine__echo', { text: 'hi' }))).toBe('fine:echo:hi');
    const t0 = performance.now();
    await expect(h.manager.callServerTool('hang', 'echo', {})).rejects.toThrow(/MCP server 'hang' is unavailable: MCP client for `hang` timed out/);
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('a server that prints garbage on stdout before serving still starts (the lines are skipped)', async () => {
    h = await makeHarness([fixtureServer('garbage', { MGR_GARBAGE: '1' }, { startup_timeout_sec: 5 }), fixtureServer('fine')]);
    const summary = await h.manager.waitForStartup();
    expect(summary.ready.sort()).toEqual(['fine', 'garbage']);
    expect(summary.failed).toEqual([]);
    expect(textOf(await h.manager.callTool('mcp__garbage__echo', { text: 'hi' }))).toBe('garbage:echo:hi');
  });

  it('reports a server that exits at start as failed without disturbing the others', async () => {
    h = await makeHarness([fixtureServer('broken', { MGR_EXIT_AT_START: '2' }), fixtureServer('fine')]);
    const summary = await h.manager.waitForStartup();
    expect(summary.ready).toEqual(['fine']);
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]!.server).toBe('broken');
    expect(h.manager.status().find((s) => s.name === 'broken')).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^MCP client for `broken` failed to start: MCP startup failed: MCP server `[^`]*` exited with code 2/),
    });
  });

  it('retries a failed server in the background and emits ready when it recovers', async () => {
    // The program does not exist until the test creates it: the first start fails, a retry succeeds.
    const { symlink } = await import('node:fs/promises');
    const path = await import('node:path');
    const dir = await tempDir('sb-retry-');
    const program = path.join(dir, 'node-later');
    const base = fixtureServer('later');
    const server = { ...base, transport: { ...base.transport, command: program } } as typeof base;
    h = await makeHarness([server], { restart: { initialDelayMs: 200, maxDelayMs: 400 } });
    h.manager.start();
    await h.waitFor(isUpdate('later', 'failed'));
    await symlink(process.execPath, program);
    await h.waitFor((e) => e.type === 'mcp_startup_update' && e.server === 'later' && e.status.state === 'ready', 15_000);
    expect(textOf(await h.manager.callTool('mcp__later__echo', { text: 'x' }))).toBe('later:echo:x');
  });

  it('restarts a server that dies after being ready, and gives up after the crash limit', async () => {
    h = await makeHarness([fixtureServer('flaky', { MGR_EXIT_AFTER_MS: '150' }), fixtureServer('steady')], {
      restart: { initialDelayMs: 50, maxDelayMs: 100, crashLimit: 3, crashWindowMs: 60_000 },
    });
    h.manager.start();
    const gaveUp = await h.waitFor(
      (e) => e.type === 'mcp_startup_update' && e.server === 'flaky' && e.status.state === 'failed' && e.status.error.includes('gave up after 3 crashes in 60 s'),
      30_000,
    );
    expect(gaveUp).toBeDefined();
    const flaky = h.events.filter((e) => e.type === 'mcp_startup_update' && e.server === 'flaky').map((e) => (e.type === 'mcp_startup_update' ? e.status.state : ''));
    expect(flaky.filter((s) => s === 'ready')).toHaveLength(3);
    // A crash after being ready says so (not "failed to start"), with what happens next.
    const lines = h.events.flatMap((e) => (e.type === 'mcp_startup_update' && e.server === 'flaky' && e.status.state === 'failed' ? [e.status.error] : []));
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(/^MCP server `flaky` stopped after being ready \(restarting in \d+ms\): MCP server `.*` exited with code 4/),
      expect.stringMatching(/^MCP server `flaky` stopped after being ready \(restarting in \d+ms\): /),
    ]);
    expect(lines.at(-1)).toMatch(/^MCP server `flaky` stopped after being ready \(gave up after 3 crashes in 60 s\): MCP server `.*` exited with code 4/);
    expect(h.manager.status().find((s) => s.name === 'flaky')).toMatchObject({ state: 'failed', retry_at: null });
    // Its tools left the catalog, but a call by name still says what happened to the server.
    expect(h.manager.lookup('mcp__flaky__echo')).toBeUndefined();
    await expect(h.manager.callTool('mcp__flaky__echo', { text: 'x' })).rejects.toThrow(/^MCP server 'flaky' is unavailable: MCP server `flaky` stopped after being ready \(gave up after 3 crashes in 60 s\)/);
    await expect(h.manager.callTool('mcp__flaky__nope', {})).rejects.toThrow(/^unknown MCP tool 'mcp__flaky__nope'/);
    expect(textOf(await h.manager.callTool('mcp__steady__echo', { text: 'ok' }))).toBe('steady:echo:ok');
  });

  it('fails required servers with Codex text', async () => {
    h = await makeHarness([fixtureServer('needed', { MGR_EXIT_AT_START: '2' }, { required: true, startup_timeout_sec: 3 }), fixtureServer('optional')]);
    await expect(h.manager.requireServers()).rejects.toThrow(/^required MCP servers failed to initialize: needed: MCP startup failed: /);
  });

  it('starts a lazy server on first use only', async () => {
    h = await makeHarness([fixtureServer('lazy', {}, { startup_mode: 'lazy' }), fixtureServer('eager')]);
    const summary = await h.manager.waitForStartup();
    expect(summary.ready).toEqual(['eager']);
    expect(h.manager.status().find((s) => s.name === 'lazy')?.state).toBe('idle');
    expect(h.events.some((e) => e.type === 'mcp_startup_update' && e.server === 'lazy')).toBe(false);
    expect(textOf(await h.manager.callServerTool('lazy', 'echo', { text: 'woke' }))).toBe('lazy:echo:woke');
    expect(h.manager.status().find((s) => s.name === 'lazy')?.state).toBe('ready');
  });

  it('keeps disabled servers invisible', async () => {
    h = await makeHarness([fixtureServer('off', {}, { enabled: false }), fixtureServer('on')]);
    await h.manager.waitForStartup();
    expect(h.manager.serverNames()).toEqual(['on']);
    expect(h.events.some((e) => e.type === 'mcp_startup_update' && e.server === 'off')).toBe(false);
  });
});
