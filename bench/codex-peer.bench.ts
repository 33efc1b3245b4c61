// Cold start as a whole process against Codex's own (issue 18): `switchboard mcp tools --json` with
// 10 stdio servers, next to `codex app-server` (the @openai/codex package's binary, over stdio)
// listing the same 10 servers with `mcpServerStatus/list`. Each side is timed from spawn until every
// server's tools are reported; shutting down is not counted. Runs alternate, after one warm-up of each
// (file cache). Two rows of ours: a fresh home each run (a first run ever), and one home kept across
// runs (every run after the first: the servers' Node compile cache warm, their era known).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { median, row, type BenchContext, type BenchRow } from './bench-types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const TINY = path.join(REPO, 'bench', 'fixtures', 'tiny-server.mjs');
const BIN = path.join(REPO, 'bin', 'switchboard.js');
const NODE = process.execPath;
const SERVERS = 10;
const TOOLS_EACH = 15;
const RUNS = 5;
/** A run that has not listed every tool by then has failed. */
const RUN_TIMEOUT_MS = 60_000;
/** Ours must take at most this share of Codex's time. */
const GOAL_RATIO = 0.8;

const serverTables = Array.from({ length: SERVERS }, (_, i) => [`[mcp_servers.s${i}]`, `command = ${JSON.stringify(NODE)}`, `args = [${JSON.stringify(TINY)}]`, '']).flat();

/**
 * Codex reaches the network at start for its plugin marketplace sync, apps, update check and
 * analytics; none of that is about MCP, and this machine has no network: all four are off.
 */
const CODEX_OFFLINE = ['check_for_update_on_startup = false', '', '[analytics]', 'enabled = false', '', '[features]', 'plugins = false', 'remote_plugin = false', 'apps = false', ''];

/** The platform binary the `codex` npm wrapper would start (Linux x64 only here). */
function codexBinary(): { bin: string; version: string } | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const require = createRequire(import.meta.url);
  try {
    const pkg = require.resolve('@openai/codex-linux-x64/package.json');
    const bin = path.join(path.dirname(pkg), 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
    const version = (require('@openai/codex/package.json') as { version: string }).version;
    return existsSync(bin) ? { bin, version } : undefined;
  } catch {
    return undefined;
  }
}

/** Spawn, then resolve with the time `done(stdout so far)` first says the listing is complete. */
function timeUntil(command: string, args: string[], env: NodeJS.ProcessEnv, start: (stdin: NodeJS.WritableStream) => void, done: (out: string) => number | undefined): Promise<{ ms: number; tools: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const exited = new Promise<void>((r) => {
      child.once('exit', () => r());
      child.once('error', () => r());
    });
    let out = '';
    let settled = false;
    const finish = (err: unknown, value?: { ms: number; tools: number }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Each stops on its own (switchboard once it has printed, codex when its stdin closes) and
      // stops its servers; that is not measured, and the next run waits for it.
      child.stdin.end();
      const stopper = setTimeout(() => child.kill('SIGTERM'), 10_000);
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      void exited.then(() => {
        clearTimeout(stopper);
        clearTimeout(killer);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve(value!);
      });
    };
    const timer = setTimeout(() => finish(new Error(`${path.basename(command)} did not list every tool within ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
    child.once('error', (err) => finish(err));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      try {
        const tools = done(out);
        if (tools !== undefined) finish(undefined, { ms: performance.now() - started, tools });
      } catch (err) {
        finish(err);
      }
    });
    start(child.stdin);
  });
}

/**
 * `keptHome` unset: a fresh home each run (a first run ever: no snapshots, and the Node compile cache
 * that switchboard gives stdio servers is empty). Set: that home, as the earlier runs left it: the
 * servers' compile cache warm and their snapshots kept, each with the protocol era the server spoke,
 * so no era probe. `mcp tools` (without `--no-wait`) waits for every server either way.
 */
async function switchboardRun(config: string, keptHome?: string): Promise<{ ms: number; tools: number }> {
  const home = keptHome ?? (await mkdtemp(path.join(os.tmpdir(), 'sb-bench-cold-')));
  try {
    if (!keptHome) await writeFile(path.join(home, 'config.toml'), config);
    return await timeUntil(NODE, [BIN, 'mcp', 'tools', '--json'], { ...process.env, SWITCHBOARD_HOME: home }, () => {}, (out) => {
      try {
        // Only tools the servers listed in this run count, none from a snapshot.
        const live = (JSON.parse(out) as { source?: string }[]).filter((t) => t.source === 'live').length;
        return live >= SERVERS * TOOLS_EACH ? live : undefined;
      } catch {
        return undefined;
      }
    });
  } finally {
    if (!keptHome) await rm(home, { recursive: true, force: true });
  }
}

function codexRun(bin: string, home: string): Promise<{ ms: number; tools: number }> {
  const send = (stdin: NodeJS.WritableStream, message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  let seen = 0;
  return timeUntil(
    bin,
    ['app-server'],
    { ...process.env, CODEX_HOME: home },
    (stdin) => {
      send(stdin, { id: 1, method: 'initialize', params: { clientInfo: { name: 'switchboard-bench', version: '1.0.0' } } });
      send(stdin, { method: 'initialized' });
      send(stdin, { id: 2, method: 'mcpServerStatus/list', params: { detail: 'toolsAndAuthOnly' } });
    },
    (out) => {
      const lines = out.split('\n');
      for (const line of lines.slice(seen, -1)) {
        const message = JSON.parse(line) as { id?: number; result?: { data: { tools: Record<string, unknown> }[] }; error?: unknown };
        if (message.id !== 2) continue;
        if (!message.result) throw new Error(`codex mcpServerStatus/list failed: ${JSON.stringify(message.error)}`);
        const counts = message.result.data.map((s) => Object.keys(s.tools).length);
        if (counts.length !== SERVERS || counts.some((n) => n < TOOLS_EACH)) throw new Error(`codex listed ${counts.join('/')} tools`);
        return counts.reduce((a, b) => a + b, 0);
      }
      seen = lines.length - 1;
      return undefined;
    },
  );
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const codex = codexBinary();
  if (!codex) {
    ctx.log('codex peer: no @openai/codex Linux x64 binary installed; skipped');
    return [];
  }
  const config = serverTables.join('\n');
  const codexHome = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-codex-'));
  const keptHome = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-kept-'));
  try {
    await writeFile(path.join(codexHome, 'config.toml'), [...CODEX_OFFLINE, ...serverTables].join('\n'));
    await writeFile(path.join(keptHome, 'config.toml'), config);
    await switchboardRun(config);
    await switchboardRun(config, keptHome); // writes the kept home's compile cache
    await codexRun(codex.bin, codexHome);
    const fresh: number[] = [];
    const kept: number[] = [];
    const theirs: number[] = [];
    let tools = { ours: 0, theirs: 0 };
    for (let i = 0; i < RUNS; i++) {
      // Alternate the order, so drift on a shared machine hits all three alike.
      const sides = [() => switchboardRun(config), () => switchboardRun(config, keptHome), () => codexRun(codex.bin, codexHome)];
      const order = i % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
      const results: { ms: number; tools: number }[] = [];
      for (const k of order) results[k] = await sides[k]!();
      const [o, c, t] = results as [{ ms: number; tools: number }, { ms: number; tools: number }, { ms: number; tools: number }];
      fresh.push(o.ms);
      kept.push(c.ms);
      theirs.push(t.ms);
      tools = { ours: Math.min(o.tools, c.tools), theirs: t.tools };
    }
    ctx.log(`codex peer: switchboard ${fresh.map(Math.round).join('/')} ms (a later run: ${kept.map(Math.round).join('/')} ms), codex app-server ${theirs.map(Math.round).join('/')} ms`);
    const baselineNote = `baseline = codex app-server ${codex.version} (its binary, stdio): spawn → mcpServerStatus/list reporting every server's tools (${tools.theirs})`;
    const goalNote = (ms: number[]) => `goal ≤ ${GOAL_RATIO}x: ${median(ms) / median(theirs) <= GOAL_RATIO ? 'met' : 'MISSED'}`;
    return [
      row(`cold start, 10 × tiny server, whole process: vs codex app-server`, median(fresh), 'ms', {
        baseline: median(theirs),
        notes: `median of ${RUNS}; switchboard: spawn → complete \`mcp tools --json\` (${tools.ours} tools), a fresh home each run (no snapshots, servers' Node compile cache empty); ${baselineNote}; ${goalNote(fresh)}`,
      }),
      row(`cold start, 10 × tiny server, whole process, a later run (servers' compile cache warm, era known): vs codex app-server`, median(kept), 'ms', {
        baseline: median(theirs),
        notes:
          `median of ${RUNS}, same runs as the row above; the same home every run, as earlier runs left it (a user's every run after the first): ` +
          `the Node compile cache switchboard gives stdio servers (mcp_node_compile_cache, on by default) warm, and each server's snapshot with the era it spoke, so no server/discover probe; ` +
          `\`mcp tools\` still waits for every server to list its tools; codex sets no compile cache; ${goalNote(kept)}`,
      }),
    ];
  } finally {
    await rm(codexHome, { recursive: true, force: true });
    await rm(keptHome, { recursive: true, force: true });
  }
}
