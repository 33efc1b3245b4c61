// A running `switchboard serve` follows its config.toml (the built CLI, real chaos-server upstreams):
// two gateways on one home, one over stdio and one over Streamable HTTP with a 2025 session and a
// 2026-07-28 client. A server added, one removed and one changed by an editor's save: the unchanged
// server keeps its process, the clients keep their sessions, a call running on the changed server
// completes, every client's catalog becomes the new file's, and each is told (2025 sessions by
// notification, the 2026-07-28 client on its subscriptions/listen stream). A broken save keeps the old
// configuration serving and is reported in the log, on /readyz, /metrics and the status page; the
// fixed file applies. `switchboard mcp add` and `mcp remove` reach the running gateways the same way.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../support/cli.js';
import { homeWithConfig, revisionOf, saveAsEditor } from '../support/config-save.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { isAlive, killProcessesByMarker } from '../support/process-tree.js';
import { removeTree } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { textOf } from './gateway-harness.js';
import { firstStatusFrame, spawnServe, type ServeProcess } from './serve-process.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const CHAOS = fixtureProgram('chaos-server.ts');
const CALL = { timeout: 60_000 };
const q = JSON.stringify;

interface Attached {
  name: string;
  client: Client;
  /** notifications/tools/list_changed received. */
  listChanged: number;
}

describe('switchboard serve: config.toml changes while clients are attached', () => {
  const marker = `serve-reload-${process.pid}-${Date.now()}`;
  let home: string;
  let file: string;
  let serve: ServeProcess;
  let http: StreamableHTTPClientTransport;
  const attached: Attached[] = [];
  const server = (name: string, extra = '') => `[mcp_servers.${name}]\ncommand = ${q(process.execPath)}\nargs = [${q(CHAOS)}, "--process-tools", "--marker", ${q(marker)}]\n${extra}`;
  /** As an editor saves: a new file renamed over the old one. */
  const save = (text: string) => saveAsEditor(file, text);
  const names = async (c: Attached) => (await c.client.listTools(undefined, CALL)).tools.map((t) => t.name).sort();
  const pidOf = async (c: Attached, s: string) => (JSON.parse(textOf(await c.client.callTool({ name: `mcp__${s}__whoami`, arguments: {} }, CALL))) as { pid: number }).pid;
  const ops = (p: string) => fetch(new URL(p, serve.url));

  async function attach(name: string, client: Client, connect: () => Promise<void>): Promise<Attached> {
    const a: Attached = { name, client, listChanged: 0 };
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/tools/list_changed') a.listChanged++;
    };
    await connect();
    attached.push(a);
    return a;
  }

  beforeAll(async () => {
    requireBuild();
    let work: string;
    ({ home, file, work } = await homeWithConfig('sb-serve-reload-', `mcp_reload_drain_timeout_ms = 60000\n${server('keep')}${server('change')}${server('gone')}`));
    const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home };
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], { env, cwd: work });
    const stdio = new Client({ name: 'reload-stdio', version: '1.0.0' });
    await attach('stdio', stdio, () => stdio.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve'], env: env as Record<string, string>, cwd: work, stderr: 'ignore' })));
    const legacy = new Client({ name: 'reload-http-2025', version: '1.0.0' });
    http = new StreamableHTTPClientTransport(new URL(serve.url));
    await attach('http 2025', legacy, () => legacy.connect(http));
    const modern = new Client({ name: 'reload-http-2026', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await attach('http 2026-07-28', modern, () => modern.connect(new StreamableHTTPClientTransport(new URL(serve.url))));
    expect(modern.getProtocolEra()).toBe('modern');
  }, 90_000);

  afterAll(async () => {
    await Promise.all(attached.map((a) => a.client.close().catch(() => {})));
    await serve?.stop();
    await killProcessesByMarker(marker);
    if (home) await removeTree(home);
  });

  it('adds, removes and restarts servers server by server; sessions, the unchanged process and a running call survive', async () => {
    const [stdio, legacy, modern] = attached as [Attached, Attached, Attached];
    const before = await names(stdio);
    const tools = before.filter((n) => n.startsWith('mcp__keep__')).map((n) => n.slice('mcp__keep__'.length));
    expect(tools).toEqual(expect.arrayContaining(['echo', 'slow', 'whoami']));
    const catalog = (...servers: string[]) => servers.flatMap((s) => tools.map((t) => `mcp__${s}__${t}`)).sort();
    for (const c of attached) expect(await names(c)).toEqual(catalog('change', 'gone', 'keep'));
    // Each gateway (stdio, HTTP) has its own upstream processes; the HTTP clients share theirs.
    const pids = async (c: Attached) => ({ keep: await pidOf(c, 'keep'), change: await pidOf(c, 'change'), gone: await pidOf(c, 'gone') });
    const [stdioPids, httpPids] = [await pids(stdio), await pids(legacy)];
    expect(await pidOf(modern, 'keep')).toBe(httpPids.keep);
    const session = http.sessionId;

    // A call running on the server about to change, on each gateway.
    const started: string[] = [];
    const running = [stdio, legacy].map((c) =>
      c.client.callTool({ name: 'mcp__change__slow', arguments: { ms: 3_000, steps: 6 } }, { ...CALL, onprogress: () => started.push(c.name) }).then(textOf),
    );
    await waitFor(() => started.includes('stdio') && started.includes('http 2025'), 'both slow calls to report progress', 20_000);
    const heard = attached.map((c) => c.listChanged);
    // The 2026-07-28 client listens for list changes.
    let modernHeard = 0;
    modern.client.setNotificationHandler('notifications/tools/list_changed', () => void modernHeard++);
    const listening = await modern.client.listen({ toolsListChanged: true });

    await save(`mcp_reload_drain_timeout_ms = 60000\n${server('keep')}${server('change', 'env = { CHAOS_COUNT_FROM = "2" }\n')}${server('added')}`);

    for (const c of attached) await waitFor(async () => (await names(c)).join() === catalog('added', 'change', 'keep').join(), `${c.name}'s catalog to be the new file's`, 30_000);
    // The 2025 clients were told, the 2026-07-28 client on its subscriptions/listen stream (and it got the fresh list on its next request).
    expect(stdio.listChanged).toBeGreaterThan(heard[0]!);
    expect(legacy.listChanged).toBeGreaterThan(heard[1]!);
    await waitFor(() => modernHeard > 0, 'the listen stream to carry tools/list_changed', 20_000);
    await listening.close();
    expect(await Promise.all(running)).toEqual(['slow done', 'slow done']);

    expect(await pids(stdio).catch(() => undefined)).toBeUndefined(); // 'gone' is not in the catalog any more
    for (const [c, old] of [[stdio, stdioPids], [legacy, httpPids]] as const) {
      expect(await pidOf(c, 'keep')).toBe(old.keep);
      expect(await pidOf(c, 'change')).not.toBe(old.change);
      expect(textOf(await c.client.callTool({ name: 'mcp__added__echo', arguments: { text: `via ${c.name}` } }, CALL))).toBe(`via ${c.name}`);
      await waitFor(() => !isAlive(old.gone) && !isAlive(old.change), 'the removed and the replaced upstream processes to exit', 20_000);
    }
    expect(http.sessionId).toBe(session);
    expect(textOf(await modern.client.callTool({ name: 'mcp__keep__echo', arguments: { text: 'still here' } }, CALL))).toBe('still here');
    const log = await readFile(path.join(home, 'log', 'switchboard.log'), 'utf8');
    expect(log).toContain('added added; removed gone; restarted change');
  }, 120_000);

  it('keeps serving the old configuration on a broken save, reports it everywhere, and applies the fix', async () => {
    const [, legacy] = attached as [Attached, Attached, Attached];
    const inForce = await readFile(file, 'utf8');
    const catalogBefore = await names(legacy);
    await save(`${inForce}\n[mcp_servers.broken\ncommand = "x"\n`);
    const errorLine = inForce.split('\n').length + 1;

    const ready = await waitFor(async () => {
      const r = await ops('/readyz');
      const body = await r.text();
      return body.includes('config reload failed') ? { status: r.status, body } : undefined;
    }, '/readyz to report the failed reload', 20_000);
    // Still ready: the configuration in force serves.
    expect(ready.status).toBe(200);
    expect(ready.body).toContain(`config revision ${revisionOf(inForce)}\nconfig reload failed at line ${errorLine}, column 1; revision ${revisionOf(inForce)} still serves: `);
    expect(ready.body).toContain(`config.toml:${errorLine}:1: invalid TOML`);
    const status = (await (await ops('/ops/status')).json()) as { config: { revision: string; error?: { line: number; column: number; message: string } } };
    expect(status.config).toMatchObject({ revision: revisionOf(inForce), error: { line: errorLine, column: 1, message: expect.stringContaining('invalid TOML') } });
    const page = await firstStatusFrame(new URL('/ops/events', serve.url).href);
    expect(page).toContain('<h2 id="h-config">Configuration</h2>');
    expect(page).toContain(`(line ${errorLine}, column 1)`);
    const metrics = await (await ops('/metrics')).text();
    expect(metrics).toContain(`switchboard_config_info{revision="${revisionOf(inForce)}"} 1`);
    expect(metrics).toContain('switchboard_config_reload_failed 1');
    expect(metrics).toMatch(/switchboard_config_reloads_total\{outcome="failed"\} 1\b/);
    const log = await readFile(path.join(home, 'log', 'switchboard.log'), 'utf8');
    expect(log).toContain(`config not applied; revision ${revisionOf(inForce)} still serves: `);
    // The old configuration serves on.
    expect(await names(legacy)).toEqual(catalogBefore);
    expect(textOf(await legacy.client.callTool({ name: 'mcp__added__echo', arguments: { text: 'served' } }, CALL))).toBe('served');

    const fixed = inForce.replace(server('added'), '');
    await save(fixed);
    await waitFor(async () => (await (await ops('/metrics')).text()).includes(`switchboard_config_info{revision="${revisionOf(fixed)}"} 1`), 'the fixed file to be in force', 20_000);
    const after = await (await ops('/metrics')).text();
    expect(after).toContain('switchboard_config_reload_failed 0');
    expect(await (await ops('/readyz')).text()).toBe(`ready\nconfig revision ${revisionOf(fixed)}\n`);
    for (const c of attached) await waitFor(async () => !(await names(c)).some((n) => n.startsWith('mcp__added__')), `${c.name} to lose the added server`, 30_000);
  }, 120_000);

  it('takes `switchboard mcp add` and `mcp remove` as they are run', async () => {
    const added = await runCliProcess(['mcp', 'add', 'cli', '--', process.execPath, CHAOS, '--process-tools', '--marker', marker], { home, env: { HOME: home } });
    expect(added).toMatchObject({ code: 0 });
    for (const c of attached) await waitFor(async () => (await names(c)).includes('mcp__cli__echo'), `${c.name} to see the added server`, 30_000);
    const [stdio] = attached as [Attached];
    expect(textOf(await stdio.client.callTool({ name: 'mcp__cli__echo', arguments: { text: 'added by the CLI' } }, CALL))).toBe('added by the CLI');
    expect(await runCliProcess(['mcp', 'remove', 'cli'], { home, env: { HOME: home } })).toMatchObject({ code: 0 });
    for (const c of attached) await waitFor(async () => !(await names(c)).includes('mcp__cli__echo'), `${c.name} to lose the removed server`, 30_000);
  }, 120_000);
});
