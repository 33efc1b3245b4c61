// Gateway benchmarks (issue 8): p50/p99 latency of 2,000 sequential tools/call through
// `switchboard serve` against the same upstream called directly, over stdio (gateway and upstream
// on stdio) and over Streamable HTTP (gateway and upstream on HTTP). The measurement runs on the built
// CLI from a fresh process (bench/workers/gateway-worker.mjs), each side next to its baseline. A third
// measurement runs a gateway session inside the worker (no extra process hop): the gateway's own cost.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { row, type BenchContext, type BenchRow } from './bench-types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const WORKER = path.join(REPO, 'bench', 'workers', 'gateway-worker.mjs');
const CALLS = 2_000;
/** The stdio goal (issue 18): what the gateway may add to a call's p50. */
const STDIO_GOAL_MS = 0.3;

interface Figures {
  ours: { p50: number; p99: number };
  base: { p50: number; p99: number };
}

type Wire = 'stdio' | 'http' | 'inproc';

function worker(wire: Wire): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, wire, JSON.stringify({ n: CALLS })], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Figures) : reject(new Error(`gateway worker (${wire}) exited ${code}`))));
  });
}

async function latency(ctx: BenchContext, wire: Wire): Promise<BenchRow[]> {
  const r = await worker(wire);
  const added = r.ours.p50 - r.base.p50;
  ctx.log(`${wire}: through the gateway p50 ${r.ours.p50.toFixed(3)} ms, direct p50 ${r.base.p50.toFixed(3)} ms, added ${added.toFixed(3)} ms`);
  const base = wire === 'http' ? 'SDK client → tiny server over Streamable HTTP' : 'SDK client → tiny server over stdio';
  if (wire === 'inproc') {
    return [
      row('added p50 latency, gateway session in-process', added, 'ms', {
        notes: `in-memory client → the gateway product, served → tiny server over stdio (${r.ours.p50.toFixed(3)} ms) vs ${base} (${r.base.p50.toFixed(3)} ms): the gateway's own cost, no extra process hop`,
      }),
    ];
  }
  return [
    row(`tools/call p50 through serve (${wire}, ${CALLS} sequential)`, r.ours.p50, 'ms', { baseline: r.base.p50, notes: `baseline = ${base}, directly` }),
    row(`tools/call p99 through serve (${wire}, ${CALLS} sequential)`, r.ours.p99, 'ms', { baseline: r.base.p99, notes: `baseline = ${base}, directly` }),
    row(`added p50 latency (${wire})`, added, 'ms', {
      notes: wire === 'stdio' ? `gateway p50 − direct p50; goal ≤ ${STDIO_GOAL_MS} ms: ${added <= STDIO_GOAL_MS ? 'met' : 'MISSED'}` : 'gateway p50 − direct p50 (an extra HTTP round trip)',
    }),
  ];
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  return [...(await latency(ctx, 'stdio')), ...(await latency(ctx, 'inproc')), ...(await latency(ctx, 'http'))];
}
