// Connection-manager benchmarks (issues 4 and 18): cold start of 10 stdio servers against the SDK
// client connecting to the same servers in parallel (the manager alone, and as createConnectionManager
// builds it, on a first run and on later ones, a later run also against the servers' own start-up
// floor; and the manager alone against SDK clients that also negotiate the protocol era); warm start
// from snapshots (`mcp tools --no-wait` as a whole process, next to `node -e 0`); per-call overhead
// against the SDK client direct; memory against the SDK as its packages ship it and as switchboard's
// build bundles it. The measurements run on the built code in a fresh process
// (bench/workers/manager-worker.mjs), each next to its SDK baseline. Goals are issues 18's and 37's.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build } from 'rolldown';
import { builtinsByGetBuiltinModule, external, OUTPUT } from '../scripts/bundle-options.js';
import { median, row, type BenchContext, type BenchRow } from './bench-types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const TINY = path.join(REPO, 'bench', 'fixtures', 'tiny-server.mjs');
const WORKER = path.join(REPO, 'bench', 'workers', 'manager-worker.mjs');
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const NODE = process.execPath;
/** Issue 18's goals, and issue 37's for the warm start (against `node -e 0` in the same run). */
const WARM_GOAL_MS = 150;
const WARM_GOAL_RATIO = 2.0;
const CALL_GOAL_RATIO = 1.1;
const RSS_GOAL_RATIO = 1.05;
/** Issue 37's: a later run's cold start within this many ms of the servers' own start-up floor. */
const FLOOR_GOAL_MS = 60;
/**
 * Calls each side makes before the measured tools/call, as the peers bench: the manager runs its own
 * bundled copy of the SDK and zod beside the baseline's copy from node_modules, so V8 has two copies
 * to optimize, and after 200 calls the first measured blocks still caught that (docs/performance.md).
 */
const CALL_WARMUP = 1_000;
const goal = (met: boolean) => (met ? 'met' : 'MISSED');

interface ServerSpec {
  args: string[];
  env?: Record<string, string>;
}

const tiny: ServerSpec = { args: [TINY] };
const everything: ServerSpec = { args: [EVERYTHING, 'stdio'] };

function spawnFor(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve({ ms: performance.now() - started, stdout }) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

async function worker<T>(what: string, args: unknown, flags: string[] = []): Promise<T> {
  const { stdout } = await spawnFor([...flags, WORKER, what, JSON.stringify(args)]);
  return JSON.parse(stdout) as T;
}

/**
 * How the home's cache (the servers' Node compile cache and snapshots) stands in a cold-start
 * measurement (see the worker's `cold`).
 */
type CompileCache = undefined | 'first' | 'warm';

const COLD_VARIANT: Record<string, string> = {
  none: 'full catalog',
  first: 'product defaults, first run (servers\' compile cache and snapshots empty)',
  warm: 'product defaults, later runs (servers\' compile cache warm, era known)',
};

/**
 * `negotiation` 'auto': the SDK clients negotiate the era as the manager does (`server/discover`
 * first), where by default they send `initialize` only and cannot reach a 2026-07-28-only server.
 */
async function coldStart(ctx: BenchContext, label: string, spec: ServerSpec, runs: number, { compileCache, negotiation }: { compileCache?: CompileCache; negotiation?: 'auto' } = {}): Promise<BenchRow[]> {
  const r = await worker<{ ours: number[]; base: number[]; floor?: number[]; tools: { ours: number; base: number; floor?: number } }>('cold', { spec, runs, compileCache, negotiation });
  const variant = COLD_VARIANT[compileCache ?? 'none']! + (negotiation ? ', against SDK clients negotiating the era' : '');
  ctx.log(`cold start ${label}, ${variant}: manager ${r.ours.map(Math.round).join('/')} ms, SDK ${r.base.map(Math.round).join('/')} ms`);
  const how = compileCache
    ? "createConnectionManager from a config.toml, as the CLI and the library build it (its defaults: mcp_node_compile_cache and snapshots on; a snapshot keeps the era its server spoke), the home's cache as the row's name says; still waiting for every server to list its tools"
    : 'the manager alone: no compile cache for its servers, as the SDK clients have none';
  const baseline = negotiation
    ? "SDK client with versionNegotiation 'auto' (both eras, server/discover first, as the manager; on its own stdio transport the SDK probes in a second, short-lived process), 10 in parallel, same process; no goal (the issue's is against the default client, the rows above)"
    : `SDK client (its default: initialize only), 10 in parallel, same process; goal ≤ 1.0x: ${goal(median(r.ours) <= median(r.base))}`;
  return [
    row(`cold start, 10 × ${label}: ${variant}`, median(r.ours), 'ms', {
      baseline: median(r.base),
      notes: `median of ${runs}; ${how}; ${r.tools.ours} tools (SDK client saw ${r.tools.base}); baseline = ${baseline}`,
    }),
    ...(r.floor ? [floorRow(ctx, label, variant, r.ours, r.floor, r.tools.floor ?? 0)] : []),
  ];
}

/**
 * The same cold starts against the servers' own start-up floor (the worker's serversFloor), run by
 * run: the sides of one run follow each other, so their difference holds less of the machine's drift.
 */
function floorRow(ctx: BenchContext, label: string, variant: string, ours: number[], floor: number[], tools: number): BenchRow {
  const over = ours.map((ms, i) => ms - floor[i]!);
  ctx.log(`cold start ${label}, ${variant}: the servers' own floor ${floor.map(Math.round).join('/')} ms; the manager over it ${over.map(Math.round).join('/')} ms`);
  return row(`cold start, 10 × ${label}: ${variant}, against the servers' own start-up floor`, median(ours), 'ms', {
    baseline: median(floor),
    notes:
      `median of ${floor.length}; floor = the same 10 servers with the home's compile cache, spawned in parallel through the SDK's stdio transport with no client behind it ` +
      `(initialize, initialized and tools/list written at once, nothing validated) until the last answered tools/list (${tools} tools); ` +
      `the manager over the floor, run by run: ${over.map(Math.round).join(', ')} ms, median ${Math.round(median(over))} ms; goal ≤ ${FLOOR_GOAL_MS} ms: ${goal(median(over) <= FLOOR_GOAL_MS)}`,
  });
}

async function warmStart(ctx: BenchContext): Promise<BenchRow[]> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-warm-'));
  try {
    const lines = Array.from({ length: 10 }, (_, i) => [`[mcp_servers.s${i}]`, `command = ${JSON.stringify(NODE)}`, `args = [${JSON.stringify(TINY)}]`, 'env = { TINY_DELAY_MS = "3000" }', '']).flat();
    await writeFile(path.join(home, 'config.toml'), lines.join('\n'));
    const env = { ...process.env, SWITCHBOARD_HOME: home };
    const bin = path.join(REPO, 'bin', 'switchboard.js');
    const cold = (await spawnFor([bin, 'mcp', 'tools'], env)).ms;
    ctx.log(`warm start: the first (cold) run with 3 s servers took ${Math.round(cold)} ms`);
    const warm: number[] = [];
    const node: number[] = [];
    const version: number[] = [];
    for (let i = 0; i < 7; i++) {
      warm.push((await spawnFor([bin, 'mcp', 'tools', '--no-wait'], env)).ms);
      node.push((await spawnFor(['-e', '0'], env)).ms);
      version.push((await spawnFor([bin, '--version'], env)).ms);
    }
    return [
      row('warm start, 10 servers of 3 s: mcp tools --no-wait', median(warm), 'ms', {
        baseline: median(node),
        notes: `median of 7 whole CLI runs; baseline = \`node -e 0\` (a bare Node process); \`switchboard --version\` ${median(version).toFixed(1)} ms; goal < ${WARM_GOAL_MS} ms: ${goal(median(warm) < WARM_GOAL_MS)}, ≤ ${WARM_GOAL_RATIO.toFixed(1)}x \`node -e 0\`: ${goal(median(warm) <= WARM_GOAL_RATIO * median(node))}; cold run ${Math.round(cold)} ms`,
      }),
    ];
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

async function callOverhead(ctx: BenchContext): Promise<BenchRow[]> {
  const n = 2_000;
  const r = await worker<{ ours: { p50: number; p99: number }; base: { p50: number; p99: number } }>('calls', { spec: tiny, n, warmup: CALL_WARMUP });
  ctx.log(`calls: manager p50 ${r.ours.p50.toFixed(3)} ms, SDK direct p50 ${r.base.p50.toFixed(3)} ms`);
  return [
    row(`tools/call p50 through the manager (${n} sequential)`, r.ours.p50, 'ms', {
      baseline: r.base.p50,
      notes: `baseline = SDK client direct to the same server, same process, after ${CALL_WARMUP} calls each, blocks of 100 alternating; goal ≤ ${CALL_GOAL_RATIO}x: ${goal(r.ours.p50 <= CALL_GOAL_RATIO * r.base.p50)}`,
    }),
    row(`tools/call p99 through the manager (${n} sequential)`, r.ours.p99, 'ms', { baseline: r.base.p99, notes: 'baseline = SDK client direct' }),
  ];
}

/** Memory runs per side, alternating: one process's RSS moves by about 1 MiB from run to run. */
const MEMORY_RUNS = 3;

/**
 * The SDK client (and its stdio transport) bundled into `dir` as the build bundles switchboard
 * (scripts/bundle-options.ts): the baseline that tells switchboard's own memory from what bundling
 * the SDK and zod saves.
 */
async function bundleSdk(dir: string): Promise<void> {
  await build({
    input: { client: '@modelcontextprotocol/client', stdio: '@modelcontextprotocol/client/stdio' },
    cwd: REPO,
    platform: 'node',
    external,
    plugins: [builtinsByGetBuiltinModule],
    logLevel: 'warn',
    output: { ...OUTPUT, dir },
  });
}

async function memory(ctx: BenchContext): Promise<BenchRow[]> {
  const bundledIn = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-sdk-'));
  try {
    await bundleSdk(bundledIn);
    const sides = { manager: [] as number[], sdk: [] as number[], 'sdk-bundled': [] as number[] };
    for (let i = 0; i < MEMORY_RUNS; i++) {
      for (const side of Object.keys(sides) as (keyof typeof sides)[]) {
        sides[side].push((await worker<{ after: number }>('memory', { spec: tiny, side, bundledIn }, ['--expose-gc'])).after);
      }
    }
    const mib = (b: number) => b / 2 ** 20;
    const list = (values: number[]) => values.map((b) => mib(b).toFixed(1)).join('/');
    ctx.log(`memory: manager process ${list(sides.manager)} MiB, SDK-only process ${list(sides.sdk)} MiB, bundled SDK-only process ${list(sides['sdk-bundled'])} MiB`);
    const ours = median(sides.manager);
    const common = `median of ${MEMORY_RUNS} processes each, after a full GC; client process only (servers excluded); `;
    return [
      row('RSS with 10 connected stdio servers', mib(ours), 'MiB', {
        baseline: mib(median(sides.sdk)),
        notes:
          common +
          `baseline = 10 SDK clients in a process of their own that loads nothing of switchboard, the SDK as its packages ship it; goal ≤ ${RSS_GOAL_RATIO}x: ${goal(ours <= RSS_GOAL_RATIO * median(sides.sdk))}`,
      }),
      row('RSS with 10 connected stdio servers, against the SDK bundled as switchboard is', mib(ours), 'MiB', {
        baseline: mib(median(sides['sdk-bundled'])),
        notes:
          common +
          `baseline = the same 10 SDK clients, the SDK and zod bundled as switchboard's build bundles them (scripts/bundle-options.ts): what switchboard itself adds; goal ≤ ${RSS_GOAL_RATIO}x: ${goal(ours <= RSS_GOAL_RATIO * median(sides['sdk-bundled']))}`,
      }),
    ];
  } finally {
    await rm(bundledIn, { recursive: true, force: true });
  }
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  return [
    ...(await coldStart(ctx, 'tiny server', tiny, 5)),
    ...(await coldStart(ctx, 'tiny server', tiny, 5, { compileCache: 'first' })),
    ...(await coldStart(ctx, 'tiny server', tiny, 5, { compileCache: 'warm' })),
    ...(await coldStart(ctx, 'tiny server', tiny, 3, { negotiation: 'auto' })),
    ...(await coldStart(ctx, 'server-everything', everything, 3)),
    ...(await coldStart(ctx, 'server-everything', everything, 3, { compileCache: 'first' })),
    ...(await coldStart(ctx, 'server-everything', everything, 3, { compileCache: 'warm' })),
    ...(await warmStart(ctx)),
    ...(await callOverhead(ctx)),
    ...(await memory(ctx)),
  ];
}
