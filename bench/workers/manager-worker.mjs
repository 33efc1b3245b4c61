// Runs one manager measurement in a fresh Node process on the built code (dist/), with its SDK
// baseline in the same process, and prints the figures as JSON. bench/manager.bench.ts drives it;
// running outside the bench harness keeps its module loader out of the hot paths being measured.
// Usage: node manager-worker.mjs <cold|calls|memory> <args json> (cold {spec, runs, compileCache?,
// negotiation?}, calls {spec, n, warmup}, memory {spec, side, bundledIn?}); a `cold` run with
// compileCache 'warm' also measures the servers' own start-up floor beside the two (`floor`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NODE, percentile } from './worker-support.mjs';

const [what, argJson] = process.argv.slice(2);
const args = JSON.parse(argJson ?? '{}');

/**
 * switchboard's modules, imported by the measurements that use them only: the SDK side of `memory`
 * is a process of bare SDK clients, which loads nothing of switchboard.
 */
async function switchboard() {
  const [{ loadConfig, parseMcpServerConfig }, { createConnectionManager, createDefaultClientFactory, McpConnectionManager }, { nullLogger }] = await Promise.all([
    import('../../dist/config/index.js'),
    import('../../dist/mcp/index.js'),
    import('../../dist/util/index.js'),
  ]);
  return { loadConfig, parseMcpServerConfig, createConnectionManager, createDefaultClientFactory, McpConnectionManager, nullLogger };
}

async function configs(spec, n) {
  const { parseMcpServerConfig } = await switchboard();
  return Array.from({ length: n }, (_, i) => parseMcpServerConfig(`s${i}`, { command: NODE, args: spec.args, ...(spec.env ? { env: spec.env } : {}) }).config);
}

async function manager(servers) {
  const { createDefaultClientFactory, McpConnectionManager, nullLogger } = await switchboard();
  return new McpConnectionManager(
    { servers: Object.fromEntries(servers.map((s) => [s.name, s])) },
    { createClient: createDefaultClientFactory({ logger: nullLogger, environments: {} }), logger: nullLogger },
  );
}

/**
 * The SDK client as its packages ship it, from node_modules (or from `bundledIn`, bundled as
 * switchboard's build bundles it), imported by the measurements that use it only: the manager side
 * of `memory` is a switchboard process, which has the SDK bundled in its own chunks
 * (scripts/bundle.ts) and loads none of node_modules' copy.
 */
async function sdk(bundledIn) {
  const [{ Client }, { StdioClientTransport }] = await Promise.all(
    bundledIn
      ? [import(path.join(bundledIn, 'client.js')), import(path.join(bundledIn, 'stdio.js'))]
      : [import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')],
  );
  return { Client, StdioClientTransport };
}

/** The SDK's stdio transport to a server started as `spec` says, `env` added to its environment. */
function stdioTo(StdioClientTransport, spec, env = {}) {
  return new StdioClientTransport({ command: NODE, args: spec.args, env: { PATH: process.env.PATH ?? '', ...spec.env, ...env }, stderr: 'ignore' });
}

/**
 * `bundledIn`: the folder of the SDK client bundled as switchboard's build bundles it (`memory` only).
 * `negotiation` 'auto': the clients probe with `server/discover` first, as the manager does; unset,
 * they are the SDK's default client, which sends `initialize` and cannot reach a 2026-07-28-only server.
 */
async function sdkClients(spec, n, bundledIn, negotiation) {
  const { Client, StdioClientTransport } = await sdk(bundledIn);
  const options = negotiation ? { versionNegotiation: { mode: negotiation } } : undefined;
  return Promise.all(
    Array.from({ length: n }, async () => {
      const client = new Client({ name: 'bench-baseline', version: '1.0.0' }, options);
      await client.connect(stdioTo(StdioClientTransport, spec));
      return { client, tools: (await client.listTools()).tools.length };
    }),
  );
}

async function sdkCold(spec, n, negotiation) {
  const started = performance.now();
  const clients = await sdkClients(spec, n, undefined, negotiation);
  const ms = performance.now() - started;
  await Promise.all(clients.map((c) => c.client.close()));
  return { ms, tools: clients.reduce((s, c) => s + c.tools, 0) };
}

/**
 * The servers' own start-up floor: `n` servers spawned in parallel through the SDK's stdio transport
 * with no client behind it. Each is sent `initialize`, `notifications/initialized` and `tools/list`
 * at once (no waiting between them, nothing validated), and the time runs until the last one has
 * answered its `tools/list`. `env` adds to the servers' environment: the home's compile cache, as
 * the manager's servers have it.
 */
async function serversFloor(spec, n, env) {
  const { StdioClientTransport } = await sdk();
  const started = performance.now();
  const servers = await Promise.all(
    Array.from({ length: n }, async () => {
      const transport = stdioTo(StdioClientTransport, spec, env);
      const listed = new Promise((resolve, reject) => {
        transport.onmessage = (m) => {
          if (m.id !== 2) return;
          if (Array.isArray(m.result?.tools)) resolve(m.result.tools.length);
          else reject(new Error(`tools/list failed: ${JSON.stringify(m.error ?? m)}`));
        };
        transport.onerror = reject;
        transport.onclose = () => reject(new Error('the server closed before answering tools/list'));
      });
      await transport.start();
      await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-floor', version: '1.0.0' } } });
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      return { transport, tools: await listed };
    }),
  );
  const ms = performance.now() - started;
  await Promise.all(servers.map(({ transport }) => transport.close()));
  return { ms, tools: servers.reduce((sum, s) => sum + s.tools, 0) };
}

/**
 * The manager as `createConnectionManager` builds it from `home`'s config.toml (the CLI's and the
 * library's entry), with its defaults: local servers get the Node compile cache under the home, and
 * each server's snapshot (its tools and the protocol era it spoke) is kept there. `listAllTools`
 * with `wait: 'all'` still waits for every server to start and list its tools.
 */
async function productManager(home) {
  const { loadConfig, createConnectionManager } = await switchboard();
  const { config } = await loadConfig({ home });
  return createConnectionManager(config);
}

/** A home whose config.toml has `n` servers started as `spec` says. */
function writeHome(spec, n) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-cold-'));
  const env = spec.env ? `env = { ${Object.entries(spec.env).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')} }\n` : '';
  const tables = Array.from({ length: n }, (_, i) => `[mcp_servers.s${i}]\ncommand = ${JSON.stringify(NODE)}\nargs = ${JSON.stringify(spec.args)}\n${env}`);
  writeFileSync(path.join(home, 'config.toml'), tables.join('\n'));
  return home;
}

async function managerCold(spec, n, home) {
  const m = home ? await productManager(home) : await manager(await configs(spec, n));
  const started = performance.now();
  const tools = await m.listAllTools({ wait: 'all' });
  const ms = performance.now() - started;
  await m.close();
  // Only tools the servers listed in this run count, none from a snapshot.
  return { ms, tools: tools.filter((t) => t.source === 'live').length };
}

/**
 * `compileCache`: undefined measures the manager alone (no compile cache for its servers, as the SDK
 * clients have none, and no snapshots); 'first' and 'warm' measure it as `createConnectionManager`
 * builds it, with the home's cache (the servers' compile cache and snapshots) emptied before every
 * run (a user's first run) or kept from a warm-up run (every run after it). 'warm' also measures the
 * servers' own start-up floor (serversFloor) with the home's compile cache. `negotiation`: the SDK
 * clients' mode (see sdkClients).
 */
async function cold({ spec, runs, compileCache, negotiation }) {
  const home = compileCache ? writeHome(spec, 10) : undefined;
  const emptyCache = () => rmSync(path.join(home, 'cache'), { recursive: true, force: true });
  await sdkCold(spec, 10, negotiation); // file cache warm for both sides
  if (home) await managerCold(spec, 10, home); // and the home's cache written
  const ourRun = () => {
    if (compileCache === 'first') emptyCache();
    return managerCold(spec, 10, home);
  };
  const sides = { ours: ourRun, base: () => sdkCold(spec, 10, negotiation) };
  if (compileCache === 'warm') sides.floor = () => serversFloor(spec, 10, { NODE_COMPILE_CACHE: path.join(home, 'cache', 'node-compile') });
  const names = Object.keys(sides);
  const figures = Object.fromEntries(names.map((name) => [name, []]));
  const tools = {};
  for (let i = 0; i < runs; i++) {
    // Rotate which side goes first, so drift on a shared machine hits every side alike.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      const r = await sides[name]();
      figures[name].push(r.ms);
      tools[name] = r.tools;
    }
  }
  if (home) rmSync(home, { recursive: true, force: true });
  return { ...figures, tools };
}

/** `warmup`: calls each side makes before the measured ones (the bench's constant). */
async function calls({ spec, n, warmup }) {
  const m = await manager(await configs(spec, 1));
  await m.listAllTools({ wait: 'all' });
  const [{ client: direct }] = await sdkClients(spec, 1);
  const ours = [];
  const base = [];
  for (let i = 0; i < warmup; i++) {
    await m.callTool('mcp__s0__tool_1', { text: 'w' });
    await direct.callTool({ name: 'tool_1', arguments: { text: 'w' } });
  }
  for (let block = 0; block < n / 100; block++) {
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await m.callTool('mcp__s0__tool_1', { text: 'x' });
      ours.push(performance.now() - t0);
    }
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await direct.callTool({ name: 'tool_1', arguments: { text: 'x' } });
      base.push(performance.now() - t0);
    }
  }
  await direct.close();
  await m.close();
  return { ours: { p50: percentile(ours, 50), p99: percentile(ours, 99) }, base: { p50: percentile(base, 50), p99: percentile(base, 99) } };
}

/** `side`: 'manager', 'sdk' (the SDK from node_modules) or 'sdk-bundled' (from `bundledIn`). */
async function memory({ spec, side, bundledIn }) {
  const before = process.memoryUsage().rss;
  let close;
  if (side === 'manager') {
    const m = await manager(await configs(spec, 10));
    await m.listAllTools({ wait: 'all' });
    close = () => m.close();
  } else {
    const clients = await sdkClients(spec, 10, side === 'sdk-bundled' ? bundledIn : undefined);
    close = () => Promise.all(clients.map((c) => c.client.close()));
  }
  globalThis.gc?.();
  const after = process.memoryUsage().rss;
  await close();
  return { before, after };
}

const cases = { cold, calls, memory };
const result = await cases[what](args);
process.stdout.write(`${JSON.stringify(result)}\n`);
