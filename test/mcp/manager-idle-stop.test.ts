// stop_after_idle_sec: a server with nothing running for that long is stopped (its process exits), its
// tools stay in the catalog, and its next use starts it again; a running call or a resource
// subscription keeps it.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { requiredUpstreamsUp } from '../../src/mcp-host/ops/index.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { startHttpFixture, type HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { isAlive } from '../support/process-tree.js';
import { waitFor } from '../support/wait.js';
import { fixtureServer, isUpdate, makeHarness, textOf, type Harness } from './manager-harness.js';

let h: Harness | undefined;
let fixture: HttpFixture | undefined;
afterEach(async () => {
  await h?.close();
  await fixture?.close();
  h = undefined;
  fixture = undefined;
});

const stateOf = (name: string) => h!.manager.status().find((s) => s.name === name);
const pidOf = async (name: string) => Number(textOf(await h!.manager.callServerTool(name, 'pid', {})));

describe('stop_after_idle_sec', () => {
  it('stops a server with nothing running, keeps its tools listed, and starts it again on the next call', async () => {
    h = await makeHarness([fixtureServer('s', { MGR_PROCESS_TOOLS: '1' }, { stop_after_idle_sec: 0.5, required: true }), fixtureServer('kept', { MGR_PROCESS_TOOLS: '1' })]);
    h.manager.start();
    await h.manager.waitForStartup();
    const listed = (await h.manager.listAllTools({ wait: 'none' })).map((t) => t.name).sort();
    const first = await pidOf('s');
    const kept = await pidOf('kept');
    const toolCount = stateOf('s')!.tools;
    expect(toolCount).toBeGreaterThan(2);
    // Its snapshot, written once: the same list after the restart writes nothing (a new inode if it did).
    const snapshots = path.join(h.home, 'cache', 'mcp-tools');
    const snapshotOfS = async () => {
      const file = (await readdir(snapshots).catch(() => [])).find((f) => f.startsWith('s-') && f.endsWith('.json'));
      return file && (await stat(path.join(snapshots, file))).ino;
    };
    // Saved behind the startup: there once renamed into place.
    const written = await waitFor(snapshotOfS, "the server's snapshot written");
    const changesBefore = h.events.filter((e) => e.type === 'mcp_tools_changed').length;

    await waitFor(() => stateOf('s')?.state === 'idle' && !isAlive(first), 'the idle server stopped, its process gone');
    expect(stateOf('s')).toMatchObject({ state: 'idle', source: 'snapshot', tools: toolCount, stopped_idle_at: expect.any(Number) });
    // Stopped for being idle is healthy: a required server so stopped keeps the endpoint ready.
    expect(requiredUpstreamsUp(h.manager.status())).toBe(true);
    expect(stateOf('kept')?.state).toBe('ready');
    expect(isAlive(kept)).toBe(true);
    // The catalog did not change: the same tools, and no list change said to anyone.
    expect((await h.manager.listAllTools({ wait: 'none' })).map((t) => t.name).sort()).toEqual(listed);
    expect(h.events.filter((e) => e.type === 'mcp_tools_changed')).toHaveLength(changesBefore);

    const second = await pidOf('s');
    expect(second).not.toBe(first);
    expect(stateOf('s')).toMatchObject({ state: 'ready', source: 'live', restarts: 0 });
    expect(stateOf('s')).not.toHaveProperty('stopped_idle_at');
    expect(textOf(await h.manager.callServerTool('s', 'echo', { text: 'again' }))).toBe('s:echo:again');
    await h.manager.close(); // (no list arrives after this)
    expect(await snapshotOfS()).toBe(written);
  });

  it('keeps a server while a call runs longer than the idle time, and counts the idle time from its end', async () => {
    h = await makeHarness([fixtureServer('s', { MGR_PROCESS_TOOLS: '1' }, { stop_after_idle_sec: 0.4 })]);
    h.manager.start();
    await h.waitFor(isUpdate('s', 'ready'));
    const pid = await pidOf('s');
    expect(textOf(await h.manager.callServerTool('s', 'sleep', { ms: 1_500 }))).toBe('slept 1500');
    const ended = performance.now();
    expect(await pidOf('s')).toBe(pid);
    await waitFor(() => stateOf('s')?.state === 'idle', 'the server stopped after the call');
    expect(performance.now() - ended).toBeGreaterThanOrEqual(350);
    await waitFor(() => !isAlive(pid), 'its process gone');
  });

  it('keeps a 2026-07-28 HTTP server while a resource subscription is held, and stops it once it ends', async () => {
    const f = (fixture = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer({ resources: true, subscribe: true }) as never }));
    const { config } = parseMcpServerConfig('res', { url: fixture.url, stop_after_idle_sec: 0.3 });
    h = await makeHarness([config]);
    h.manager.start();
    await h.waitFor(isUpdate('res', 'ready'));
    await h.manager.subscribe('res', 'memo://note');
    await new Promise((r) => setTimeout(r, 1_200));
    expect(stateOf('res')?.state).toBe('ready');
    expect(f.listenerCount()).toBe(1);
    await h.manager.unsubscribe('res', 'memo://note');
    await waitFor(() => stateOf('res')?.state === 'idle', 'the server stopped once unsubscribed');
    await waitFor(() => f.listenerCount() === 0, 'its listen stream closed');
    // Its next use opens a session again.
    expect((await h.manager.readResource('res', 'memo://note')).contents[0]).toMatchObject({ text: 'note body' });
    expect(stateOf('res')?.state).toBe('ready');
  });

  it('a reload that sets it applies it to the running server in place (same process), and one that clears it keeps the server', async () => {
    h = await makeHarness([fixtureServer('s', { MGR_PROCESS_TOOLS: '1' }), fixtureServer('t', { MGR_PROCESS_TOOLS: '1' }, { stop_after_idle_sec: 0.6 })]);
    h.manager.start();
    await h.manager.waitForStartup();
    const [s, t] = [await pidOf('s'), await pidOf('t')];
    const done = h.manager.reload({ s: fixtureServer('s', { MGR_PROCESS_TOOLS: '1' }, { stop_after_idle_sec: 0.3 }), t: fixtureServer('t', { MGR_PROCESS_TOOLS: '1' }) });
    expect(done.updated.sort()).toEqual(['s', 't']);
    expect([await pidOf('s'), await pidOf('t')]).toEqual([s, t]);
    await waitFor(() => stateOf('s')?.state === 'idle' && !isAlive(s), 'the reloaded server stopped when idle');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(stateOf('t')?.state).toBe('ready');
    expect(isAlive(t)).toBe(true);
  });

  it('keeps a server while it is held (a task the gateway holds), and counts the idle time from the release', async () => {
    h = await makeHarness([fixtureServer('s', {}, { stop_after_idle_sec: 0.3 })]);
    h.manager.start();
    await h.waitFor(isUpdate('s', 'ready'));
    const release = h.manager.holdServer('s');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(stateOf('s')?.state).toBe('ready');
    release();
    release(); // letting go twice counts once
    const released = performance.now();
    await waitFor(() => stateOf('s')?.state === 'idle', 'the server stopped once let go');
    expect(performance.now() - released).toBeGreaterThanOrEqual(250);
  });

  it("with the host's default for stdio servers (serve's): stops a stdio server without the setting; keeps one at 0 and an HTTP server", async () => {
    fixture = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer({}) as never });
    const { config: remote } = parseMcpServerConfig('remote', { url: fixture.url });
    h = await makeHarness([fixtureServer('byDefault', { MGR_PROCESS_TOOLS: '1' }), fixtureServer('zero', { MGR_PROCESS_TOOLS: '1' }, { stop_after_idle_sec: 0 }), remote], { stdioIdleStopSec: 0.4 });
    h.manager.start();
    await h.manager.waitForStartup();
    const [stopped, kept] = [await pidOf('byDefault'), await pidOf('zero')];
    const ended = performance.now();
    await waitFor(() => stateOf('byDefault')?.state === 'idle', 'the stdio server without the setting stopped');
    expect(performance.now() - ended).toBeGreaterThanOrEqual(350);
    await waitFor(() => !isAlive(stopped), 'its process gone');
    await new Promise((r) => setTimeout(r, 600));
    expect([stateOf('zero')?.state, stateOf('remote')?.state]).toEqual(['ready', 'ready']);
    expect(isAlive(kept)).toBe(true);
    // Its next use starts it again.
    expect(await pidOf('byDefault')).not.toBe(stopped);
  });

  it('never stops a server without the setting, nor with it at 0', async () => {
    h = await makeHarness([fixtureServer('default'), fixtureServer('zero', {}, { stop_after_idle_sec: 0 })]);
    h.manager.start();
    await h.manager.waitForStartup();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(h.manager.status().map((s) => s.state)).toEqual(['ready', 'ready']);
  });
});
