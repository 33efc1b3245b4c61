// Gateway peers (issues 14 and 37): switchboard `serve --http --transparent`, mcp-proxy (stateful and
// --stateless) and supergateway --stateful side by side, each exposing the same tiny stdio server
// over Streamable HTTP on loopback, once per protocol era: the SDK v2 client negotiating the era
// (2026-07-28 where the gateway offers it) and the SDK v1 client (a 2025 session). Per era, fresh
// gateways: p50/p99 of 1,000 sequential tools/call after 1,000 warm-up calls (each gateway's from
// a client process of its own, in blocks of 100 alternating between the gateways, the order turning
// each round; the p50 of those first 1,000 calls is a row of its own) and the
// CPU each gateway's process tree used per call in either phase (read from /proc), then
// per gateway 32 clients connecting at once, 20 calls each, 8 s after those (calls ok/failed, wall
// time, processes and RSS of the gateway's tree before them and at their peak), and the RSS of each
// tree at rest, 75 s after its last call; then 500 clients at once through a fresh switchboard
// alone. A second switchboard runs alongside with mcp_stop_after_idle_sec = 0, its upstream kept
// (serve's default stops it after 60 s with nothing running): its rows say what keeping it costs at
// rest, and until then it is the first one's twin (their difference is the bench's noise).
// Switchboard's rows carry the best peer of the same run as their baseline. The clients run in
// bench/workers/gateway-peers-worker.mjs; the processes are sampled here from /proc. About 7
// minutes on an otherwise idle 2-core machine (longer when it is loaded), most of it supergateway's
// crowds (each starts 32 servers), the 10,000 sequential calls and the 75 s of rest per era.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KEPT, killTree, peakSampler, sampleTree, scratchHome, startGateway, treeCpuMs, type Gateway, type GatewayName, type TreeSample } from './gateway-peers-procs.js';
import { row, type BenchContext, type BenchRow } from './bench-types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const WORKER = path.join(REPO, 'bench', 'workers', 'gateway-peers-worker.mjs');
const GATEWAYS: readonly GatewayName[] = ['switchboard', KEPT, 'mcp-proxy', 'mcp-proxy --stateless', 'supergateway'];
const PEERS = GATEWAYS.filter((n) => n !== 'switchboard' && n !== KEPT);
/** The worker's client per era, and the label its rows carry. */
const ERAS = [
  { client: '2026', label: '2026 era', who: 'SDK v2 client negotiating the era' },
  { client: '2025', label: '2025 era', who: 'SDK v1 client, a 2025 session' },
] as const;
type Era = (typeof ERAS)[number];
const SEQUENTIAL = 1_000;
/**
 * Calls each gateway serves before the timed ones. A gateway's per-call time keeps falling for
 * about its first 1,000 calls while V8 optimizes its code (every gateway's, but more for the ones
 * that run more JavaScript per call); the p50 compares them once they are steady. The warm-up's
 * own p50 is a row of its own.
 */
const WARMUP = 1_000;
const CROWD = { clients: 32, calls: 20 };
/**
 * The crowd comes this long after the sequential calls: a gateway between a team's bursts of work,
 * or an agent's pause between calls. Each tree's RSS then is a row of its own.
 */
const BETWEEN_MS = 8_000;
/**
 * "At rest" is this long after a gateway's last call (its crowd): a gateway nobody is using.
 * switchboard's HTTP host collects and shrinks its heap after 60 s without a request (checked every
 * 5 s), and `serve` stops a stdio upstream after 60 s with nothing running on it
 * (mcp_stop_after_idle_sec); V8's memory reducer may have shrunk a peer's heap by then, as it does on
 * its own.
 */
const AT_REST_MS = 75_000;
const BIG_CROWD = { clients: 500, calls: 20 };
const CALL_TIMEOUT_MS = 20_000;
const SEQUENTIAL_TIMEOUT_MS = 240_000; // 10,000 calls; a loaded 2-core machine can take minutes

interface Latency {
  p50: number;
  p99: number;
  /** p50 of the warm-up calls before the timed ones. */
  warmupP50: number;
  /** The protocol revision the client and this gateway agreed on. */
  era: string;
  /** CPU the gateway's whole tree (the gateway and the stdio server) used per call: over the warm-up calls (the connect and the upstream's start included), and after them (ms). */
  cpuWarmup: number;
  cpuPerCall: number;
}

interface CrowdOutcome {
  ok: number;
  failed: number;
  connected: number;
  wallMs: number;
  errors: Record<string, number>;
  tree: TreeSample;
  /** The tree just before the crowd. */
  before: TreeSample;
  timedOut?: boolean;
}

/** Runs the worker; `onLine` sees each stdout line and may answer on its stdin. Killed at `timeoutMs`. */
function worker(args: string[], timeoutMs: number, onLine: (line: string, reply: (text: string) => void) => void | Promise<void>, onStart?: (child: ChildProcessWithoutNullStreams) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    onStart?.(child);
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

/** What the worker measures of a gateway's calls; the bench adds their CPU. */
type Timings = Omit<Latency, 'cpuWarmup' | 'cpuPerCall'>;

/** A worker the bench drives line by line: `next()` is its next stdout line, parsed; `send` writes a line to its stdin; `stop` kills it. */
function drivenWorker(args: string[], timeoutMs: number): { next(): Promise<Record<string, unknown>>; send(text: string): void; stop(): void; done: Promise<void> } {
  const lines: string[] = [];
  let waiter: { resolve(line: string): void; reject(err: Error): void } | undefined;
  let failed: Error | undefined;
  let child: ChildProcessWithoutNullStreams | undefined;
  const done = worker(
    args,
    timeoutMs,
    (line) => {
      if (waiter) waiter.resolve(line);
      else lines.push(line);
    },
    (c) => (child = c),
  ).catch((err: Error) => {
    failed = err;
    waiter?.reject(err);
    throw err;
  });
  done.catch(() => {}); // its failure reaches the bench through next() or done
  return {
    next: () =>
      new Promise<string>((resolve, reject) => {
        if (lines.length > 0) return resolve(lines.shift()!);
        if (failed) return reject(failed);
        waiter = { resolve: (line) => ((waiter = undefined), resolve(line)), reject };
      }).then((line) => JSON.parse(line) as Record<string, unknown>),
    send: (text) => child!.stdin.write(`${text}\n`),
    stop: () => child?.kill('SIGKILL'),
    done,
  };
}

/**
 * The sequential calls: each gateway's client in a worker process of its own, so that the client's
 * own warm-up (its first calls run its code cold) is each gateway's alike and not the first one's in
 * each round; blocks of 100 alternate between the gateways, the order turning by one each round.
 */
async function sequential(era: Era, gateways: Gateway[]): Promise<Record<string, Latency>> {
  const workers = gateways.map((g) => drivenWorker(['sequential', JSON.stringify({ client: era.client, url: g.url, tool: g.tool, n: SEQUENTIAL, warmup: WARMUP })], SEQUENTIAL_TIMEOUT_MS));
  // Each gateway's tree is its own, so its CPU over the alternating blocks is its share alone.
  const cpu = () => Promise.all(gateways.map((g) => treeCpuMs(g.child.pid!)));
  const rounds = async (count: number, first: number) => {
    for (let round = first; round < first + count; round++) {
      for (let j = 0; j < workers.length; j++) {
        const w = workers[(round + j) % workers.length]!;
        w.send('go');
        await w.next();
      }
    }
  };
  try {
    await Promise.all(workers.map((w) => w.next())); // every client connected
    const before = await cpu();
    await rounds(WARMUP / 100, 0);
    const warmed = await cpu();
    await rounds(SEQUENTIAL / 100, WARMUP / 100);
    // Sampled while the sessions are open: their teardown is no call, and supergateway's ends its server.
    const measured = await cpu();
    const timings = (await Promise.all(workers.map((w) => w.next()))) as unknown as Timings[];
    for (const w of workers) w.send('end');
    await Promise.all(workers.map((w) => w.done));
    return Object.fromEntries(gateways.map((g, k) => [g.name, { ...timings[k]!, cpuWarmup: (warmed[k]! - before[k]!) / WARMUP, cpuPerCall: (measured[k]! - warmed[k]!) / SEQUENTIAL }]));
  } catch (err) {
    for (const w of workers) w.stop();
    throw err;
  }
}

/** `clients` connect at once, `calls` each; the tree is sampled throughout and while the sessions are still open. */
async function crowd(era: Era, g: Gateway, { clients, calls }: { clients: number; calls: number }, timeoutMs: number, pauseFrom?: number): Promise<CrowdOutcome> {
  const pid = g.child.pid!;
  if (pauseFrom !== undefined) await sleep(Math.max(0, pauseFrom + BETWEEN_MS - Date.now()));
  const before = await sampleTree(pid);
  const sampler = peakSampler(pid);
  let outcome: Omit<CrowdOutcome, 'tree' | 'before'> | undefined;
  try {
    await worker(['crowd', JSON.stringify({ client: era.client, url: g.url, tool: g.tool, clients, calls, callTimeoutMs: CALL_TIMEOUT_MS })], timeoutMs, async (line, reply) => {
      outcome = JSON.parse(line) as Omit<CrowdOutcome, 'tree' | 'before'>;
      await sampler.take(); // once more while every session is still open
      reply('close');
    });
  } catch (err) {
    if (!outcome) outcome = { ok: 0, failed: clients * calls, connected: 0, wallMs: timeoutMs, errors: { [String(err)]: 1 }, timedOut: true };
  }
  return { ...outcome!, tree: await sampler.stop(), before };
}

const mb = (n: number) => `${n.toFixed(0)} MB`;
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

function topErrors(errors: Record<string, number>): string {
  const list = Object.entries(errors).sort((a, b) => b[1] - a[1]).slice(0, 2);
  return list.length === 0 ? '' : `; errors: ${list.map(([e, n]) => `${n}× ${e}`).join('; ')}`;
}

/** `who`'s figure (default switchboard's) against the best peer's, with the goal's verdict (`goal` as a ratio). */
function againstBest(value: (n: GatewayName) => number, peers: readonly GatewayName[], goal?: number, who: GatewayName = 'switchboard'): { baseline: number; note: string } {
  const best = peers.reduce((a, b) => (value(b) < value(a) ? b : a));
  const baseline = value(best);
  const verdictNote = goal === undefined ? 'no goal of its own' : `goal ≤ ${goal.toFixed(1)}x: ${verdict(value(who) <= goal * baseline)}`;
  return { baseline, note: `baseline = the best peer (${best}); ${verdictNote}` };
}

/** The CPU row: no goal of its own (it is what the latency rows cost); switchboard's against the peer that used least. */
function cpuRow(ours: boolean, lat: Record<string, Latency>, key: 'cpuWarmup' | 'cpuPerCall', notes: string): { baseline?: number; notes: string } {
  if (!ours) return { notes };
  const least = PEERS.reduce((a, b) => (lat[b]![key] < lat[a]![key] ? b : a));
  return { baseline: lat[least]![key], notes: `${notes}; baseline = the peer that used least (${least})` };
}

/** One era's rows: latency, the crowd and RSS per gateway; switchboard's against the best peer. */
function eraRows(era: Era, lat: Record<string, Latency>, crowds: Record<string, CrowdOutcome>, rest: Record<string, TreeSample>): BenchRow[] {
  // A peer whose crowd lost calls is no baseline for the crowd's figures.
  const clean = PEERS.filter((n) => crowds[n]!.failed === 0);
  const crowdPeers = clean.length > 0 ? clean : PEERS;
  const goals = {
    warmup: againstBest((n) => lat[n]!.warmupP50, PEERS, 1),
    p50: againstBest((n) => lat[n]!.p50, PEERS, 1),
    p99: againstBest((n) => lat[n]!.p99, PEERS, 1),
    wall: againstBest((n) => crowds[n]!.wallMs, crowdPeers, 1),
    between: againstBest((n) => crowds[n]!.before.rssMb, crowdPeers),
    rest: againstBest((n) => rest[n]!.rssMb, crowdPeers, 0.8),
    restKept: againstBest((n) => rest[n]!.rssMb, crowdPeers, undefined, KEPT),
    peak: againstBest((n) => crowds[n]!.tree.rssMb, crowdPeers, 0.8),
  };
  const crowdLabel = `${CROWD.clients} clients × ${CROWD.calls} calls`;
  const rows: BenchRow[] = [];
  for (const name of GATEWAYS) {
    const l = lat[name]!;
    const c = crowds[name]!;
    const ours = name === 'switchboard';
    const label = `peers ${era.label}: ${name}`;
    const goal = (g: { baseline: number; note: string }, notes: string) => (ours ? { baseline: g.baseline, notes: `${notes}; ${g.note}` } : { notes });
    const restNotes = `VmRSS summed over the tree (shared pages count in each process), ${AT_REST_MS / 1000} s or more after its last call (the crowd's), every session closed`;
    // The goals are the default configuration's; the twin's one row against the best peer is at rest.
    const restRow = name === KEPT ? { baseline: goals.restKept.baseline, notes: `${restNotes}; its upstream kept running; ${goals.restKept.note}` } : goal(goals.rest, restNotes);
    rows.push(
      row(`${label} tools/call p50, the first ${WARMUP} calls`, l.warmupP50, 'ms', goal(goals.warmup, `speaking ${l.era}; ${era.who}; a fresh gateway's first calls, blocks of 100 alternating`)),
      row(`${label} tools/call p50 after warm-up`, l.p50, 'ms', goal(goals.p50, `${SEQUENTIAL} sequential calls after the ${WARMUP} above`)),
      row(`${label} tools/call p99 after warm-up`, l.p99, 'ms', goal(goals.p99, `the same ${SEQUENTIAL} calls`)),
      row(`${label} CPU of the gateway's tree per call, the first ${WARMUP} calls`, l.cpuWarmup, 'ms', cpuRow(ours, lat, 'cpuWarmup', `user + system of the gateway and its stdio server, from /proc: the connect and the upstream's start included`)),
      row(`${label} CPU of the gateway's tree per call after warm-up`, l.cpuPerCall, 'ms', cpuRow(ours, lat, 'cpuPerCall', `the same, over the ${SEQUENTIAL} calls after them`)),
      row(`${label} ${crowdLabel}: wall time`, c.wallMs, 'ms', goal(goals.wall, `from the first connect to the last call answered; ${c.ok} ok, ${c.failed} failed, ${c.connected} clients connected${c.timedOut ? ', TIMED OUT' : ''}; ${c.tree.processes} processes (${c.tree.upstreams} upstream) at peak${topErrors(c.errors)}`)),
      row(`${label} RSS of the gateway's tree between bursts`, c.before.rssMb, 'MB', goal(goals.between, `VmRSS summed over the tree (shared pages count in each process), ${BETWEEN_MS / 1000} s or more after the sequential calls, their sessions closed, just before the crowd`)),
      row(`${label} RSS of the gateway's tree at rest`, rest[name]!.rssMb, 'MB', restRow),
      row(`${label} RSS of the gateway's tree under ${crowdLabel}`, c.tree.rssMb, 'MB', goal(goals.peak, 'the same, peak while the crowd runs and its sessions are open')),
    );
    if (ours) {
      rows.push(
        row(`${label} ${crowdLabel}: calls failed`, c.failed, 'calls', { notes: `goal 0: ${verdict(c.failed === 0)}${topErrors(c.errors)}` }),
        row(`${label} ${crowdLabel}: upstream processes`, c.tree.upstreams, 'processes', { notes: `copies of the stdio server, peak; goal 1: ${verdict(c.tree.upstreams === 1)}` }),
      );
    }
  }
  return rows;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const scratch = await scratchHome();
  const running: Gateway[] = [];
  const rows: BenchRow[] = [];
  try {
    for (const era of ERAS) {
      // Fresh gateways per era: the first 1,000 calls are each gateway's first.
      const started: Gateway[] = [];
      for (const name of GATEWAYS) started.push(await startGateway(name, scratch.home, scratch.env));
      running.push(...started);
      ctx.log(`${era.label}: gateways up: ${started.map((g) => `${g.name} ${g.url}`).join(', ')}`);
      const lat = await sequential(era, started);
      const pauseFrom = Date.now();
      for (const g of started) {
        const l = lat[g.name]!;
        ctx.log(`${era.label}: ${g.name} (${l.era}): first ${WARMUP} p50 ${l.warmupP50.toFixed(3)} ms, then p50 ${l.p50.toFixed(3)} ms, p99 ${l.p99.toFixed(3)} ms; tree CPU ${l.cpuWarmup.toFixed(3)}, then ${l.cpuPerCall.toFixed(3)} ms a call`);
      }
      const crowds: Record<string, CrowdOutcome> = {};
      for (const g of started) {
        // The gateways whose crowd is over stay up but idle: the next gateway's crowd runs on a quiet machine.
        const c = (crowds[g.name] = await crowd(era, g, CROWD, 60_000, pauseFrom));
        ctx.log(`${era.label}: ${g.name}: ${CROWD.clients} clients: ${c.ok} ok, ${c.failed} failed, ${c.wallMs.toFixed(0)} ms, ${c.tree.processes} processes (${c.tree.upstreams} upstream), ${mb(c.before.rssMb)} before, ${mb(c.tree.rssMb)} peak`);
      }
      ctx.log(`${era.label}: every gateway at rest for ${AT_REST_MS / 1000} s`);
      await sleep(AT_REST_MS);
      const rest: Record<string, TreeSample> = {};
      for (const g of started) rest[g.name] = await sampleTree(g.child.pid!);
      ctx.log(`${era.label}: at rest: ${started.map((g) => `${g.name} ${mb(rest[g.name]!.rssMb)}`).join(', ')}`);
      await Promise.all(started.map((g) => killTree(g.child)));
      rows.push(...eraRows(era, lat, crowds, rest));
    }
    // 500 clients through a fresh switchboard: nothing left from the runs above.
    const big = await startGateway('switchboard', scratch.home, scratch.env);
    running.push(big);
    const b = await crowd(ERAS[0], big, BIG_CROWD, 120_000);
    ctx.log(`switchboard: ${BIG_CROWD.clients} clients: ${b.ok} ok, ${b.failed} failed, ${b.tree.processes} processes, ${mb(b.tree.rssMb)}`);
    const label = `peers: switchboard alone, ${BIG_CROWD.clients} clients × ${BIG_CROWD.calls} calls (${ERAS[0].label})`;
    rows.push(
      row(`${label}: calls failed`, b.failed, 'calls', { notes: `of ${b.ok + b.failed}; ${b.connected} clients connected${b.timedOut ? '; TIMED OUT' : ''}; goal 0: ${verdict(b.failed === 0)}${topErrors(b.errors)}` }),
      row(`${label}: upstream processes`, b.tree.upstreams, 'processes', { notes: `copies of the stdio server, peak; goal 1: ${verdict(b.tree.upstreams === 1)}` }),
      row(`${label}: wall time`, b.wallMs, 'ms', { notes: 'from the first connect to the last call answered' }),
      row(`${label}: RSS of the gateway's tree`, b.tree.rssMb, 'MB', { notes: `peak (before the first call: ${mb(b.before.rssMb)})` }),
    );
    return rows;
  } finally {
    await Promise.all(running.map((g) => killTree(g.child)));
    await scratch.remove();
  }
}
