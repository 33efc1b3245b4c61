// Observability benchmarks (issue 16): what a call through the gateway costs with tracing off
// against today's build (the branch point, built into a temporary folder), with tracing on and
// exporting over OTLP to a loopback receiver, and how long a /metrics scrape takes with 10 servers of
// 100 tools, each tool called once. Figures come from fresh processes (bench/workers/observability-worker.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TSC } from '../test/support/typescript.js';
import { row, type BenchContext, type BenchRow } from './bench-types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const WORKER = path.join(REPO, 'bench', 'workers', 'observability-worker.mjs');
const CALLS = 2_000;
const TRACING_GOAL_MS = 0.025;
const TRACING_RUNS = 3;
/** Calls each side serves before the timed ones: per-call time falls for about the first 1,000 while V8 optimizes the code. */
const WARMUP = 1_000;
const SCRAPE_GOAL_MS = 20;

interface P {
  p50: number;
  p99: number;
}

function worker<T>(mode: string, args: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, mode, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`observability worker (${mode}) exited ${code}`))));
  });
}

/**
 * Today's switchboard: the commit this work branched from (SWITCHBOARD_BENCH_BASE, else the merge
 * base with main), exported and built beside the repository's node_modules. Null when there is none.
 */
async function buildToday(ctx: BenchContext): Promise<{ bin: string; ref: string; dispose(): Promise<void> } | null> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO, encoding: 'utf8' }).trim();
  let ref: string;
  try {
    ref = process.env.SWITCHBOARD_BENCH_BASE ?? git('merge-base', 'HEAD', 'main');
  } catch {
    return null;
  }
  if (ref === git('rev-parse', 'HEAD')) return null;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-today-'));
  ctx.log(`building today's switchboard (${ref.slice(0, 12)}) in ${dir}`);
  execFileSync('sh', ['-c', `git archive ${ref} | tar -x -C ${JSON.stringify(dir)}`], { cwd: REPO });
  await symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  const bin = path.join(dir, 'bin', 'switchboard.js');
  if (!existsSync(bin)) throw new Error(`today's build has no ${bin}`);
  return { bin, ref, dispose: () => rm(dir, { recursive: true, force: true }) };
}

async function tracingOff(ctx: BenchContext): Promise<BenchRow[]> {
  const today = await buildToday(ctx);
  if (!today) {
    ctx.log('no earlier build to compare with (HEAD is the base): tracing-off row skipped');
    return [];
  }
  try {
    const r = await worker<{ ours: P; today: P }>('off', { n: CALLS, warmup: WARMUP, todayBin: today.bin });
    const added = r.ours.p50 - r.today.p50;
    ctx.log(`tracing off: p50 ${r.ours.p50.toFixed(3)} ms, today's build ${r.today.p50.toFixed(3)} ms`);
    return [
      row(`tracing off: tools/call p50 through serve (stdio, ${CALLS} sequential)`, r.ours.p50, 'ms', {
        baseline: r.today.p50,
        notes: `baseline = today's build (${today.ref.slice(0, 12)}) in the same run, alternating blocks; difference ${(added * 1000).toFixed(0)} µs`,
      }),
      row(`tracing off: tools/call p99 through serve (stdio, ${CALLS} sequential)`, r.ours.p99, 'ms', { baseline: r.today.p99, notes: "baseline = today's build" }),
    ];
  } finally {
    await today.dispose();
  }
}

async function tracingOn(ctx: BenchContext): Promise<BenchRow[]> {
  // One worker run's difference moves by ±25 µs on a shared machine (its own noise floor, both sides
  // off, is ±10 µs), as much as the goal: the figure is the median of a few runs, each printed.
  const runs: { off: P; on: P; exports: number }[] = [];
  for (let i = 0; i < TRACING_RUNS; i++) runs.push(await worker<{ off: P; on: P; exports: number }>('tracing', { n: CALLS, warmup: WARMUP }));
  const added = runs.map((r) => r.on.p50 - r.off.p50);
  const mid = runs[added.indexOf([...added].sort((a, b) => a - b)[Math.floor(TRACING_RUNS / 2)]!)]!;
  const median = mid.on.p50 - mid.off.p50;
  const each = added.map((a) => (a * 1000).toFixed(1)).join(', ');
  ctx.log(`tracing on: p50 ${mid.on.p50.toFixed(3)} ms, off ${mid.off.p50.toFixed(3)} ms (${mid.exports} exports); added per run ${each} µs`);
  return [
    row(`tracing on and exporting: tools/call p50, gateway session in-process (${CALLS} sequential)`, mid.on.p50, 'ms', {
      baseline: mid.off.p50,
      notes: `the run with the median difference of ${TRACING_RUNS}; baseline = the same gateway with tracing off, same process, alternating blocks after ${WARMUP} calls each; two spans per call (server, client), ${mid.exports} OTLP/HTTP exports to a loopback receiver`,
    }),
    row('tracing on: added p50 per call', median * 1000, 'µs', {
      notes: `on − off, median of ${TRACING_RUNS} runs (${each} µs); goal ≤ ${TRACING_GOAL_MS * 1000} µs: ${median <= TRACING_GOAL_MS ? 'met' : 'MISSED'}`,
    }),
  ];
}

async function scrape(ctx: BenchContext): Promise<BenchRow[]> {
  const r = await worker<P & { bytes: number }>('scrape', { servers: 10, tools: 100, n: 50 });
  ctx.log(`/metrics: p50 ${r.p50.toFixed(2)} ms, ${r.bytes} bytes`);
  return [
    row('/metrics scrape p50, 10 servers × 100 tools (each called once)', r.p50, 'ms', {
      notes: `GET over loopback, median of 50; ${Math.round(r.bytes / 1024)} KiB of text; goal < ${SCRAPE_GOAL_MS} ms: ${r.p50 < SCRAPE_GOAL_MS ? 'met' : 'MISSED'}`,
    }),
    row('/metrics scrape p99, 10 servers × 100 tools', r.p99, 'ms'),
  ];
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  return [...(await scrape(ctx)), ...(await tracingOn(ctx)), ...(await tracingOff(ctx))];
}
