// The targets `npm run conformance:server` measures, each against one requirement set: the fixture
// and its 2026-07-28 twin alone, `server-everything` alone, a default `serve --http --transparent`
// in front of each (never worse than what it fronts), `mcp-server --http` on the 2026-07-28
// scenarios that apply to a server without the fixture's tools, and the tasks extension's scenarios
// through the gateway in front of a server on SDK v1's 2025 tasks runtime.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import type { Requirements } from './conformance-server.js';
import { freePort } from '../test/support/free-port.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningTarget {
  url: string;
  stop(): Promise<void>;
}

export interface Target {
  name: string;
  description: string;
  /** Expected-failures file (`server: [scenario, ...]`), relative to the repository root. */
  baseline: string;
  /** Name of an earlier target this one may never be worse than (a scenario it passes must pass here). */
  notWorseThan?: string;
  /** The requirement set it is measured against. */
  requirements: Requirements;
  /** Only these scenarios of the set (a server that is not built for the rest, e.g. without the fixture's tools). */
  only?: string[];
  /**
   * Instead of the set: these scenarios of an extension (outside every revision's timeline, so the CLI
   * runs them only when forced), at the set's wire.
   */
  extension?: string[];
  start(): Promise<RunningTarget>;
}

// ---------------------------------------------------------------------------------------------
// Processes

/** Spawns a server that prints its URL on stdout and resolves once it has. */
export async function spawnUrlPrinter(argv: string[], options: { timeoutMs?: number; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunningTarget> {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('empty command');
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = '';
    const timer = setTimeout(() => fail(new Error(`no URL printed within ${options.timeoutMs ?? 20_000} ms`)), options.timeoutMs ?? 20_000);
    function fail(error: Error): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${argv.join(' ')}: ${error.message}\n${stderr}`));
    }
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`exited (${signal ?? code}) before printing a URL`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /https?:\/\/\S+/.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolveUrl(match[0]);
    });
  });
  return { url, stop: () => stopChild(child) };
}

export function requireDist(): void {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm run conformance:server builds)');
}

export function startFixture(): Promise<RunningTarget> {
  return spawnUrlPrinter([process.execPath, join(ROOT, 'test/fixtures/conformance-server.ts'), '--port', '0']);
}

/**
 * `switchboard serve --http 127.0.0.1:0 --transparent` (built CLI, default settings, a throwaway
 * SWITCHBOARD_HOME whose config.toml names `upstream` as the one server, given as its TOML table body).
 * The suite sends no token, so the gateway runs with --insecure-no-auth on loopback; the suite opens a
 * session per 2025 scenario and never deletes one; the default session bound holds them (no limit is raised).
 */
export async function startGateway(upstream: () => Promise<{ table: string; stop(): Promise<void> }>): Promise<RunningTarget> {
  requireDist();
  const behind = await upstream();
  const home = await mkdtemp(join(tmpdir(), 'sb-conformance-gateway-'));
  const stopAll = async () => {
    await behind.stop();
    await rm(home, { recursive: true, force: true });
  };
  try {
    await writeFile(join(home, 'config.toml'), `[mcp_servers.upstream]\n${behind.table}\n`);
    const gateway = await spawnUrlPrinter(
      [process.execPath, join(ROOT, 'bin', 'switchboard.js'), 'serve', '--http', '127.0.0.1:0', '--transparent', '--insecure-no-auth'],
      { env: { ...process.env, SWITCHBOARD_HOME: home } },
    );
    return {
      url: gateway.url,
      async stop() {
        await gateway.stop();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

function startFixture2026(): Promise<RunningTarget> {
  return spawnUrlPrinter([process.execPath, join(ROOT, 'test/fixtures/conformance-server-2026.ts'), '--port', '0']);
}

/** `server-everything streamableHttp` (it takes its port from PORT and prints no URL): ready once it answers. */
async function startEverything(): Promise<RunningTarget> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await fetch(url, { method: 'DELETE' }).then(() => true, () => false);
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await stopChild(child);
      throw new Error('server-everything did not start listening within 20 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop: () => stopChild(child) };
}

const byUrl = (start: () => Promise<RunningTarget>) => async () => {
  const running = await start();
  return { table: `url = ${JSON.stringify(running.url)}`, stop: running.stop };
};
const TASK_FIXTURE = join(ROOT, 'test/fixtures/task-upstream.mjs');
const taskFixtureOverStdio = async () => ({ table: `command = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TASK_FIXTURE)}]`, stop: async () => {} });
/** The tasks extension (SEP-2663) scenarios of the suite. */
const TASKS_EXTENSION_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
const everythingOverStdio = async () => ({ table: `command = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]`, stop: async () => {} });

/** `switchboard mcp-server --http` with a throwaway home (no model is called by these scenarios). */
async function startMcpServer(): Promise<RunningTarget> {
  requireDist();
  const home = await mkdtemp(join(tmpdir(), 'sb-conformance-mcp-server-'));
  try {
    const server = await spawnUrlPrinter([process.execPath, join(ROOT, 'bin', 'switchboard.js'), 'mcp-server', '--http', '127.0.0.1:0', '--insecure-no-auth'], {
      env: { ...process.env, SWITCHBOARD_HOME: home },
    });
    return {
      url: server.url,
      async stop() {
        await server.stop();
        await rm(home, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(home, { recursive: true, force: true });
    throw err;
  }
}

export const TARGETS: Target[] = [
  { name: 'fixture', description: 'test/fixtures/conformance-server.ts alone', requirements: '2025-11-25', baseline: 'conformance/server-expected-failures.yml', start: startFixture },
  {
    name: 'gateway',
    description: 'switchboard serve --http --transparent in front of the fixture',
    requirements: '2025-11-25',
    baseline: 'conformance/server-gateway-expected-failures.yml',
    notWorseThan: 'fixture',
    start: () => startGateway(byUrl(startFixture)),
  },
  {
    name: 'fixture-2026',
    description: 'test/fixtures/conformance-server-2026.ts alone (createMcpHandler)',
    requirements: '2026-07-28',
    baseline: 'conformance/server-2026-expected-failures.yml',
    start: startFixture2026,
  },
  {
    name: 'gateway-2026',
    description: 'switchboard serve --http --transparent in front of the 2026-07-28 fixture',
    requirements: '2026-07-28',
    baseline: 'conformance/server-gateway-2026-expected-failures.yml',
    notWorseThan: 'fixture-2026',
    start: () => startGateway(byUrl(startFixture2026)),
  },
  {
    name: 'everything',
    description: '@modelcontextprotocol/server-everything alone (its Streamable HTTP mode)',
    requirements: '2025-11-25',
    baseline: 'conformance/server-everything-expected-failures.yml',
    start: startEverything,
  },
  {
    name: 'gateway-everything',
    description: 'switchboard serve --http --transparent in front of server-everything (stdio)',
    requirements: '2025-11-25',
    baseline: 'conformance/server-gateway-everything-expected-failures.yml',
    notWorseThan: 'everything',
    start: () => startGateway(everythingOverStdio),
  },
  {
    name: 'everything-2026',
    description: 'server-everything alone, against the 2026-07-28 set',
    requirements: '2026-07-28',
    baseline: 'conformance/server-everything-2026-expected-failures.yml',
    start: startEverything,
  },
  {
    name: 'gateway-everything-2026',
    description: 'serve --http --transparent in front of server-everything, against the 2026-07-28 set',
    requirements: '2026-07-28',
    baseline: 'conformance/server-gateway-everything-2026-expected-failures.yml',
    notWorseThan: 'everything-2026',
    start: () => startGateway(everythingOverStdio),
  },
  {
    name: 'mcp-server-2026',
    description: 'switchboard mcp-server --http, the 2026-07-28 scenarios for a server without the fixture\'s tools',
    requirements: '2026-07-28',
    baseline: 'conformance/server-mcp-server-2026-expected-failures.yml',
    only: ['server-stateless', 'tools-list', 'dns-rebinding-protection', 'caching', 'input-required-result-unsupported-methods', 'http-header-validation'],
    start: startMcpServer,
  },
  {
    name: 'gateway-tasks-2026',
    description: 'serve --http --transparent in front of a server with 2025 tasks (SDK v1), the tasks extension scenarios',
    requirements: '2026-07-28',
    baseline: 'conformance/server-gateway-tasks-2026-expected-failures.yml',
    extension: TASKS_EXTENSION_SCENARIOS,
    start: () => startGateway(taskFixtureOverStdio),
  },
];
