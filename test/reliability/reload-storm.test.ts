// Reloads during a session storm lose nothing: 500 calls, 16 in flight, through the storm's HTTP
// upstream (session expiry every 7 requests, 2% dropped SSE streams), and calls to a stdio server
// alongside until it ends, while the configuration is reloaded twelve times: a server added and
// removed, the storm server's tool filter changed in place, the stdio server restarted with another
// environment. Every call succeeds (a restarted server's running calls finish before it goes), the
// storm upstream sees only its own session recoveries (no reload reconnected it), and no process is
// left behind. Once through the connection manager, once through a running `switchboard serve --http`
// with four clients whose config.toml is saved six times during the storm.
// `npm test` runs the first (test/gateway/serve-reload*.test.ts reload a running serve --http there);
// SWITCHBOARD_TEST_FULL=1 (`npm run test:reliability`) runs both.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig, type McpServerConfig } from '../../src/config/index.js';
import { createDefaultClientFactory, McpConnectionManager, type ServersReloaded } from '../../src/mcp/index.js';
import { createLogger } from '../../src/util/index.js';
import { spawnServe } from '../gateway/serve-process.js';
import { revisionOf, saveAsEditor } from '../support/config-save.js';
import { fullRun, sliceTitle } from '../support/long-runs.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { findProcessesByMarker, killProcessesByMarker } from '../support/process-tree.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { CHAOS, NODE } from './fault-cases.js';
import { startStormServer, storm, STORM } from './storm-server.js';

const RELOADS = 12;
const GATEWAY_RELOADS = 6;
const CLIENTS = 4;
const q = JSON.stringify;
const textOf = (r: { content?: unknown }) => ((r.content as { text?: string }[])[0]?.text ?? '');
const markers: string[] = [];
afterEach(async () => {
  await Promise.all(markers.splice(0).map((m) => killProcessesByMarker(m)));
});

describe(sliceTitle('reload during a session storm', fullRun ? 2 : 1, 2), { timeout: 180_000 }, () => {
  it(`${STORM.calls} storm calls and a stdio server's calls through ${RELOADS} reloads: nothing lost`, async () => {
    const server = await startStormServer(markers);
    const marker = `reload-storm-${process.pid}-${Date.now()}`;
    markers.push(marker);
    const stdio = (generation: number) => ({ command: NODE, args: [CHAOS, '--marker', marker], env: { GENERATION: String(generation) }, tool_timeout_sec: 60 });
    const configFor = (k: number): Record<string, McpServerConfig> => {
      const raw: Record<string, Record<string, unknown>> = {
        storm: { url: server.url, tool_timeout_sec: 60, ...(k % 2 === 1 ? { disabled_tools: ['slow'] } : {}) },
        // Restarted every third reload (a new environment is a new process).
        side: stdio(Math.floor(k / 3)),
        ...(k % 4 === 1 ? { extra: stdio(0) } : {}),
      };
      return Object.fromEntries(Object.entries(raw).map(([name, table]) => [name, parseMcpServerConfig(name, table).config]));
    };
    const logger = createLogger(() => {}, { level: 'info' });
    const manager = new McpConnectionManager({ servers: configFor(0) }, { createClient: createDefaultClientFactory({ logger, environments: {} }), logger });
    const done: ServersReloaded[] = [];
    try {
      await manager.waitForStartup();
      // Reload k waits for the k-th share of the storm, so every reload lands in the middle of it.
      let completed = 0;
      const reloads = (async () => {
        for (let k = 1; k <= RELOADS; k++) {
          await waitFor(() => completed >= (k * STORM.calls) / (RELOADS + 1), `storm call ${Math.ceil((k * STORM.calls) / (RELOADS + 1))} before reload ${k}`, 60_000);
          done.push(manager.reload(configFor(k)));
        }
      })();
      // Calls to the side server (every third reload restarts it) go on until the storm is over.
      const side: { want: string; got: string }[] = [];
      const sideWorker = async () => {
        while (completed < STORM.calls) {
          const i = side.length;
          const entry = { want: i % 2 === 0 ? `side ${i}` : 'slow done', got: '' };
          side.push(entry);
          entry.got = await manager
            .callTool(i % 2 === 0 ? 'mcp__side__echo' : 'mcp__side__slow', i % 2 === 0 ? { text: `side ${i}` } : { ms: 100, steps: 2 })
            .then(textOf, (err: unknown) => `error: ${String(err)}`);
        }
      };
      const [stormRun] = await Promise.all([
        storm(async (i) => {
          const text = textOf(await manager.callTool('mcp__storm__echo', { text: `storm ${i}` }));
          completed++;
          return text;
        }),
        ...Array.from({ length: 4 }, sideWorker),
      ]);
      await reloads;
      const stats = await server.stats();
      console.log(`reload storm: ${STORM.calls} storm calls in ${Math.round(stormRun.ms)} ms, ${done.length} reloads; server: ${JSON.stringify(stats)}`);
      expect(done).toHaveLength(RELOADS);
      expect(stormRun.results).toEqual(Array.from({ length: STORM.calls }, (_, i) => `storm ${i}`));
      expect(side.length).toBeGreaterThan(STORM.calls / 10);
      expect(side.map((c) => c.got)).toEqual(side.map((c) => c.want));
      // The reloads did what they say: the side server restarted, extra came and went, storm was only updated.
      expect(done.flatMap((d) => d.restarted)).toContain('side');
      expect(done.flatMap((d) => d.added)).toContain('extra');
      expect(done.flatMap((d) => d.removed)).toContain('extra');
      expect(done.flatMap((d) => [...d.restarted, ...d.removed])).not.toContain('storm');
      // Only the storm's own session expiries re-initialized it.
      expect(stats.expired).toBeGreaterThan(0);
      expect(stats.initializes).toBe(stats.expired + 1);
    } finally {
      await manager.close();
    }
    // The replaced and removed processes are gone (each 'side' generation and 'extra').
    await waitFor(async () => (await findProcessesByMarker(marker)).length === 0, 'every stdio upstream to exit', 20_000);
  });

  if (fullRun) it(`switchboard serve --http: ${STORM.calls} calls from ${CLIENTS} clients through ${GATEWAY_RELOADS} saves of config.toml: nothing lost`, async () => {
    requireBuild();
    const server = await startStormServer(markers);
    const marker = `reload-storm-gw-${process.pid}-${Date.now()}`;
    markers.push(marker);
    const home = await tempDir('sb-reload-storm-');
    const file = path.join(home, 'config.toml');
    const stdio = (name: string, generation: number) => `[mcp_servers.${name}]\ncommand = ${q(NODE)}\nargs = [${q(CHAOS)}, "--marker", ${q(marker)}]\nenv = { GENERATION = "${generation}" }\ntool_timeout_sec = 60\n`;
    const configText = (k: number) =>
      `mcp_reload_drain_timeout_ms = 60000\n[mcp_servers.storm]\nurl = ${q(server.url)}\ntool_timeout_sec = 60\n${k % 2 === 1 ? 'disabled_tools = ["slow"]\n' : ''}` +
      stdio('side', Math.floor(k / 3)) +
      (k % 4 === 1 ? stdio('extra', 0) : '');
    await writeFile(file, configText(0));
    await mkdir(path.join(home, 'work'));
    const serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: path.join(home, 'work') });
    const clients: Client[] = [];
    try {
      for (let c = 0; c < CLIENTS; c++) {
        const client = new Client({ name: `reload-storm-${c}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        clients.push(client);
      }
      const call = (c: number, name: string, args: Record<string, unknown>) => clients[c % CLIENTS]!.callTool({ name, arguments: args }, { timeout: 60_000 }).then(textOf);
      let completed = 0;
      const reloads = (async () => {
        for (let k = 1; k <= GATEWAY_RELOADS; k++) {
          await waitFor(() => completed >= (k * STORM.calls) / (GATEWAY_RELOADS + 1), `storm call before save ${k}`, 60_000);
          const text = configText(k);
          await saveAsEditor(file, text);
          const revision = revisionOf(text);
          await waitFor(async () => (await (await fetch(new URL('/readyz', serve.url))).text()).includes(`config revision ${revision}\n`), `save ${k} to be in force`, 30_000);
        }
      })();
      const side: { want: string; got: string }[] = [];
      const sideWorker = async (w: number) => {
        while (completed < STORM.calls) {
          const i = side.length;
          const entry = { want: i % 2 === 0 ? `side ${i}` : 'slow done', got: '' };
          side.push(entry);
          entry.got = await call(w, i % 2 === 0 ? 'mcp__side__echo' : 'mcp__side__slow', i % 2 === 0 ? { text: `side ${i}` } : { ms: 100, steps: 2 }).catch((err: unknown) => `error: ${String(err)}`);
        }
      };
      const [stormRun] = await Promise.all([
        storm(async (i) => {
          const text = await call(i, 'mcp__storm__echo', { text: `storm ${i}` });
          completed++;
          return text;
        }),
        ...Array.from({ length: 2 }, (_, w) => sideWorker(w)),
      ]);
      await reloads;
      const stats = await server.stats();
      console.log(`gateway reload storm: ${STORM.calls} calls in ${Math.round(stormRun.ms)} ms, ${side.length} side calls; server: ${JSON.stringify(stats)}`);
      expect(stormRun.results).toEqual(Array.from({ length: STORM.calls }, (_, i) => `storm ${i}`));
      expect(side.map((c) => c.got)).toEqual(side.map((c) => c.want));
      expect(stats.initializes).toBe(stats.expired + 1);
      const log = await readFile(path.join(home, 'log', 'switchboard.log'), 'utf8');
      expect(log).toMatch(/config reloaded .*added extra/);
      expect(log).toMatch(/config reloaded .*removed extra/);
      expect(log).toMatch(/config reloaded .*restarted side/);
      expect(log).not.toMatch(/config reloaded .*(restarted|removed) [^;]*storm/);
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      expect(await serve.stop()).toBe(0);
      await removeTree(home);
    }
    await waitFor(async () => (await findProcessesByMarker(marker)).length === 0, 'every stdio upstream to exit', 20_000);
  });
});
