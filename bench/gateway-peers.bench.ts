// Gateway peers (issue 14): switchboard `serve --http --transparent`, mcp-proxy and supergateway
// --stateful side by side, each exposing the same tiny stdio server over Streamable HTTP on loopback.
// Per gateway: p50/p99 of 1,000 sequential tools/call after 1,000 warm-up calls (blocks alternating
// between the gateways; the warm-up's p50 reported too), then
// 32 clients connecting at once, 20 calls each (calls ok/failed, wall time, processes and RSS of the
// gateway's tree); then 500 clients at once through a fresh switchboard alone. The clients run in
// bench/workers/gateway-peers-worker.mjs; the processes are sampled here from /proc.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { killTree, peakSampler, sampleTree, scratchHome, startGateway, type Gateway, type GatewayName, type TreeSample } from './gateway-peers-procs.js';
import { row, type BenchContext, type BenchRow } from './bench-types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const WORKER = path.join(REPO, 'bench', 'workers', 'gateway-peers-worker.mjs');
const GATEWAYS: readonly GatewayName[] = ['switchboard', 'mcp-proxy', 'supergateway'];
const SEQUENTIAL = 1_000;
/**
 * Calls each gateway serves before the timed ones. A gateway's per-call time keeps falling for
 * about its first 1,000 calls while V8 optimizes its code (every gateway's, but more for the ones
 * that run more JavaScript per call); the p50 compares them once they are steady. The warm-up's
 * own p50 is a row of its own.
 */
const WARMUP = 1_000;
const CROWD = { clients: 32, calls: 20 };
const BIG_CROWD = { clients: 500, calls: 20 };
const CALL_TIMEOUT_MS = 20_000;
const SEQUENTIAL_TIMEOUT_MS = 90_000;

interface Latency {
  p50: number;
  p99: number;
  /** p50 of the warm-up calls before the timed ones. */
  warmupP50: number;
}

interface CrowdOutcome {
  ok: number;
  failed: number;
  connected: number;
  wallMs: number;
  errors: Record<string, number>;
  tree: TreeSample;
  idle: TreeSample;
  timedOut?: boolean;
}

/** Runs the worker; `onLine` sees each stdout line and may answer on its stdin. Killed at `timeoutMs`. */
function worker(args: string[], timeoutMs: number, onLine: (line: string, reply: (text: string) => void) => void | Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker ${args[0]} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdin.on('error', () => {});
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2048)));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffer += d;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        void Promise.resolve(onLine(line, (text) => child.stdin.write(`${text}\n`))).catch(reject);
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`worker ${args[0]} exited ${code}: ${stderr.trim()}`));
    });
  });
}

async function sequential(gateways: Gateway[]): Promise<Record<string, Latency>> {
  let result: Record<string, Latency> | undefined;
  const targets = gateways.map((g) => ({ name: g.name, url: g.url, tool: g.tool }));
  await worker(['sequential', JSON.stringify({ targets, n: SEQUENTIAL, warmup: WARMUP })], SEQUENTIAL_TIMEOUT_MS, (line) => {
    result = JSON.parse(line) as Record<string, Latency>;
  });
  if (!result) throw new Error('sequential worker printed nothing');
  return result;
}

/** `clients` connect at once, `calls` each; the tree is sampled throughout and while the sessions are still open. */
async function crowd(g: Gateway, { clients, calls }: { clients: number; calls: number }, timeoutMs: number): Promise<CrowdOutcome> {
  const pid = g.child.pid!;
  const idle = await sampleTree(pid);
  const sampler = peakSampler(pid);
  let outcome: Omit<CrowdOutcome, 'tree' | 'idle'> | undefined;
  try {
    await worker(['crowd', JSON.stringify({ url: g.url, tool: g.tool, clients, calls, callTimeoutMs: CALL_TIMEOUT_MS })], timeoutMs, async (line, reply) => {
      outcome = JSON.parse(line) as Omit<CrowdOutcome, 'tree' | 'idle'>;
      await sampler.take(); // once more while every session is still open
      reply('close');
    });
  } catch (err) {
    if (!outcome) outcome = { ok: 0, failed: clients * calls, connected: 0, wallMs: timeoutMs, errors: { [String(err)]: 1 }, timedOut: true };
  }
  return { ...outcome!, tree: await sampler.stop(), idle };
}

const mb = (n: number) => `${n.toFixed(0)} MB`;
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

function topErrors(errors: Record<string, number>): string {
  const list = Object.entries(errors).sort((a, b) => b[1] - a[1]).slice(0, 2);
  return list.length === 0 ? '' : `; errors: ${list.map(([e, n]) => `${n}× ${e}`).join('; ')}`;
}

function crowdRows(label: string, c: CrowdOutcome, goals: { failed?: string; upstreams?: string; rss?: { baseline: number; note: string } }): BenchRow[] {
  const total = c.ok + c.failed;
  const errs = topErrors(c.errors);
  return [
    row(`${label}: calls ok`, c.ok, 'calls', { notes: `of ${total}; ${c.connected} clients connected${c.timedOut ? '; phase TIMED OUT' : ''}` }),
    row(`${label}: calls failed`, c.failed, 'calls', { notes: `${goals.failed ?? ''}${errs}`.replace(/^; /, '') }),
    row(`${label}: wall time`, c.wallMs, 'ms', { notes: 'from the first connect to the last call answered' }),
    row(`${label}: processes in the gateway's tree`, c.tree.processes, 'processes', { notes: `gateway and descendants, peak (idle before: ${c.idle.processes})` }),
    row(`${label}: upstream processes`, c.tree.upstreams, 'processes', { notes: `copies of the stdio server, peak${goals.upstreams ? `; ${goals.upstreams}` : ''}` }),
    row(`${label}: RSS of the gateway's tree`, c.tree.rssMb, 'MB', {
      baseline: goals.rss?.baseline,
      notes: `VmRSS summed over the tree (shared pages count in each process), peak (idle before: ${mb(c.idle.rssMb)})${goals.rss ? `; ${goals.rss.note}` : ''}`,
    }),
  ];
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const scratch = await scratchHome();
  const running: Gateway[] = [];
  try {
    for (const name of GATEWAYS) running.push(await startGateway(name, scratch.home, scratch.env));
    ctx.log(`gateways up: ${running.map((g) => `${g.name} ${g.url}`).join(', ')}`);
    const lat = await sequential(running);
    for (const g of running) ctx.log(`${g.name}: p50 ${lat[g.name]!.p50.toFixed(3)} ms, p99 ${lat[g.name]!.p99.toFixed(3)} ms (warm-up p50 ${lat[g.name]!.warmupP50.toFixed(3)} ms)`);
    const crowds: Partial<Record<GatewayName, CrowdOutcome>> = {};
    for (const g of running) {
      crowds[g.name] = await crowd(g, CROWD, 60_000);
      const c = crowds[g.name]!;
      ctx.log(`${g.name}: ${CROWD.clients} clients: ${c.ok} ok, ${c.failed} failed, ${c.wallMs.toFixed(0)} ms, ${c.tree.processes} processes (${c.tree.upstreams} upstream), ${mb(c.tree.rssMb)}`);
      await killTree(g.child); // the next gateway's crowd runs on a quiet machine
    }
    // 500 clients through a fresh switchboard: nothing left from the runs above.
    const big = await startGateway('switchboard', scratch.home, scratch.env);
    running.push(big);
    const bigCrowd = await crowd(big, BIG_CROWD, 120_000);
    ctx.log(`switchboard: ${BIG_CROWD.clients} clients: ${bigCrowd.ok} ok, ${bigCrowd.failed} failed, ${bigCrowd.tree.processes} processes, ${mb(bigCrowd.tree.rssMb)}`);

    const peers = GATEWAYS.filter((n) => n !== 'switchboard');
    const bestBy = (value: (n: GatewayName) => number) => peers.reduce((a, b) => (value(b) < value(a) ? b : a));
    const bestP50 = bestBy((n) => lat[n]!.p50);
    const bestRss = bestBy((n) => crowds[n]!.tree.rssMb);
    const crowdLabel = `${CROWD.clients} clients × ${CROWD.calls} calls`;
    const rows: BenchRow[] = [];
    for (const name of GATEWAYS) {
      const l = lat[name]!;
      const ours = name === 'switchboard';
      const p50Goal = ours ? `; baseline = the best peer (${bestP50}); goal: at or below it: ${verdict(l.p50 <= lat[bestP50]!.p50)}` : '';
      rows.push(
        row(`peers: ${name} tools/call p50 (${SEQUENTIAL} sequential)`, l.p50, 'ms', { baseline: ours ? lat[bestP50]!.p50 : undefined, notes: `one client, Streamable HTTP on loopback, after ${WARMUP} calls${p50Goal}` }),
        row(`peers: ${name} tools/call p50, the ${WARMUP} calls before (warm-up)`, l.warmupP50, 'ms', {
          baseline: ours ? lat[bestP50]!.warmupP50 : undefined,
          notes: `the same client's first calls on a fresh session, blocks of 100 alternating${ours ? `; baseline = ${bestP50}'s` : ''}`,
        }),
        row(`peers: ${name} tools/call p99 (${SEQUENTIAL} sequential)`, l.p99, 'ms', { notes: 'one client, blocks of 100 alternating between the gateways' }),
      );
      const c = crowds[name]!;
      rows.push(
        ...crowdRows(
          `peers: ${name} ${crowdLabel}`,
          c,
          ours
            ? {
                failed: `goal 0: ${verdict(c.failed === 0)}`,
                upstreams: `goal 1: ${verdict(c.tree.upstreams === 1)}`,
                rss: { baseline: crowds[bestRss]!.tree.rssMb, note: `baseline = the best peer (${bestRss}); goal: at or below it: ${verdict(c.tree.rssMb <= crowds[bestRss]!.tree.rssMb)}` },
              }
            : {},
        ),
      );
    }
    rows.push(
      ...crowdRows(`peers: switchboard alone, ${BIG_CROWD.clients} clients × ${BIG_CROWD.calls} calls`, bigCrowd, {
        failed: `goal 0: ${verdict(bigCrowd.failed === 0)}`,
        upstreams: `goal 1: ${verdict(bigCrowd.tree.upstreams === 1)}`,
      }),
    );
    return rows;
  } finally {
    await Promise.all(running.map((g) => killTree(g.child)));
    await scratch.remove();
  }
}
