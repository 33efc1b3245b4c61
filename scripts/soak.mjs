#!/usr/bin/env node
// `npm run soak [-- --minutes N] [--clients 32] [--in-flight 4] [--subject gateway|manager] [--json FILE]
// [--seed N] [--crash-after N] [--no-trace-gc]` (flags in docs/reliability.md, "Soak"):
// a long run outside CI on the built code. By default the subject is the gateway — the built CLI
// `switchboard serve --http` with 10 upstreams (five healthy stdio servers, five chaotic ones) — under a
// constant stream of calls from concurrent MCP clients, each its own session, all sharing the gateway's
// one pool of upstreams. Reports calls, latency, failures by upstream and cause, the gateway's RSS at
// start/middle/end (flagging growth beyond 20%), its open descriptors, its upstream processes (counted
// every 5 s: never more than one per stdio upstream, however many clients) and what is left after
// close; exits 1 on a problem.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeStats, runClient } from './soak/load.mjs';
import { descendants, killMarked, processesWithMarker, sampleTree } from './soak/proc.mjs';
import { startGatewaySubject, startManagerSubject } from './soak/subjects.mjs';
import { describeUpstream, HEALTHY, soakUpstreams, startHttpUpstreams } from './soak/upstreams.mjs';

const { values: flags } = parseArgs({
  options: {
    subject: { type: 'string', default: 'gateway' },
    minutes: { type: 'string', default: '20' },
    clients: { type: 'string' },
    callers: { type: 'string' },
    'in-flight': { type: 'string', default: '4' },
    'crash-after': { type: 'string' },
    json: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'trace-gc': { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const SUBJECT = flags.subject;
if (SUBJECT !== 'gateway' && SUBJECT !== 'manager') throw new Error('--subject must be gateway or manager');
const MINUTES = Number(flags.minutes);
const CLIENTS = Number(flags.clients ?? flags.callers ?? '32');
const IN_FLIGHT = Number(flags['in-flight']);
const SEED = Number(flags.seed);
// The crashy server sees about a tenth of all calls, through the manager as through the gateway
// (whose sessions share one pool of upstreams): it crashes, and is restarted, every few minutes.
const CRASH_AFTER = Number(flags['crash-after'] ?? '2000');
if (![MINUTES, CLIENTS, IN_FLIGHT, CRASH_AFTER].every((n) => n > 0)) throw new Error('--minutes, --clients, --in-flight and --crash-after must be positive numbers');
const DURATION_MS = MINUTES * 60_000;
const MARKER = `soak-${process.pid}-${Date.now()}`;
const RSS_GROWTH_LIMIT = 0.2;
/**
 * The "start" sample is taken once the load has run this long: a quarter of the run, at most 5 min.
 * By then the JIT, pools and bounded buffers (each session's 4 MiB SSE event store) are warm.
 */
const WARMUP_MS = Math.min(Math.max(DURATION_MS * 0.25, 10_000), 300_000);
const UPSTREAMS = soakUpstreams({ crashAfter: CRASH_AFTER });
/** One process per stdio upstream, shared by every client: the count must never exceed it. */
const STDIO_UPSTREAMS = UPSTREAMS.filter((u) => u.kind === 'stdio').length;

async function until(check, timeoutMs) {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value.done || performance.now() > end) return value.value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const started = performance.now();
const home = await mkdtemp(path.join(os.tmpdir(), 'sb-soak-'));
let http = new Map();
let subject;
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  process.stderr.write('\ninterrupted: finishing and reporting\n');
});

try {
  http = await startHttpUpstreams(UPSTREAMS, { marker: MARKER, seed: String(SEED) });
  const httpPids = [...http.values()].map((h) => h.child.pid);
  const options = { home, upstreams: UPSTREAMS, http, marker: MARKER, traceGc: flags['trace-gc'] };
  subject = SUBJECT === 'gateway' ? await startGatewaySubject(options) : await startManagerSubject(options);
  const sample = async (label) => {
    const s = await sampleTree(label, subject.pid, { exclude: subject.exclude, since: started });
    const heap = subject.heap?.();
    return heap ? { ...s, liveHeapMiB: heap.liveMiB, committedHeapMiB: heap.committedMiB } : s;
  };
  process.stdout.write(
    `soak: ${subject.name}${subject.url ? ` at ${subject.url} (pid ${subject.pid})` : ''} with ${UPSTREAMS.length} upstreams, ${CLIENTS} clients × ${IN_FLIGHT} calls in flight, ${MINUTES} min (node ${process.version}, ${os.cpus().length} CPUs)\n`,
  );
  const idle = await sample('idle');
  // The subject's upstream processes now (the HTTP upstreams run outside it).
  const upstreamProcesses = async () => (await descendants(subject.pid)).filter((p) => !subject.exclude.includes(p)).length;
  const processCounts = [];
  const conns = [];
  for (let id = 0; id < CLIENTS; id++) conns.push(await subject.connect(id));
  // Every session lists its catalog once (the gateway waits for servers that are still starting).
  await Promise.all(conns.map((c) => c.tools?.()));
  const beforeLoad = await sample('before load');
  processCounts.push(beforeLoad.childProcesses);

  const stats = makeStats(UPSTREAMS, SEED);
  const samples = [];
  const loadStart = performance.now();
  const deadline = loadStart + DURATION_MS;
  const keepGoing = () => !interrupted && performance.now() < deadline;
  // Each client keeps IN_FLIGHT calls going at once, as an agent running tool calls in parallel does.
  const clients = conns.flatMap((conn, id) =>
    Array.from({ length: IN_FLIGHT }, (_, lane) => runClient({ conn, id: id * 100 + lane, seed: SEED, upstreams: UPSTREAMS, keepGoing, stats })),
  );
  let middleTaken = false;
  const PRINT_EVERY_MS = Math.min(60_000, Math.max(5_000, DURATION_MS / 10));
  let nextPrint = PRINT_EVERY_MS;
  let ticking = null;
  const ticker = setInterval(() => {
    ticking ??= tick().finally(() => (ticking = null));
  }, 5_000);
  ticker.unref();
  async function tick() {
    const elapsed = performance.now() - loadStart;
    processCounts.push(await upstreamProcesses());
    if (samples.length === 0 && elapsed >= WARMUP_MS) samples.push(await sample('start'));
    if (!middleTaken && samples.length === 1 && elapsed >= DURATION_MS / 2) {
      middleTaken = true;
      samples.push(await sample('middle'));
    }
    if (elapsed < nextPrint) return;
    nextPrint += PRINT_EVERY_MS;
    const s = await sample('progress');
    const snap = stats.snapshot();
    process.stdout.write(
      `  ${Math.round(elapsed / 1000)}s: ${snap.calls} calls (${Math.round(snap.calls / (elapsed / 1000))}/s), ${snap.failed} failed; ${subject.name} RSS ${s.rssMiB} MiB${s.liveHeapMiB ? ` (live heap ${s.liveHeapMiB})` : ''}, ${s.fds} fds, ${s.childProcesses} children (${s.childrenRssMiB} MiB)\n`,
    );
  }
  await Promise.all(clients);
  const loadSeconds = (performance.now() - loadStart) / 1000;
  clearInterval(ticker);
  await ticking;
  if (samples.length === 0) samples.push(await sample('start'));
  if (samples.length === 1) samples.push(await sample('middle'));
  samples.push(await sample('end'));
  const statusAtEnd = await subject.status();

  processCounts.push(samples.at(-1).childProcesses);
  // Close the clients first: a session that ends closes only its own protocol state, so the pool's
  // upstream processes stay (for the next client) and none is added.
  for (const c of conns) await c.close();
  const afterClientsCount = await upstreamProcesses();
  // Idle keep-alive sockets (to the clients, to the HTTP upstreams) close within ~5 s; then count.
  await new Promise((r) => setTimeout(r, 10_000));
  const afterClients = await sample('after clients closed');
  const exit = await subject.close();
  const stderrTail = subject.stderrTail?.() ?? '';
  const heapAtEnd = subject.heap?.();
  subject = undefined;
  const leftAfterClose = await until(async () => {
    const n = (await processesWithMarker(MARKER)).filter((p) => !httpPids.includes(p)).length;
    return { done: n === 0, value: n };
  }, 10_000);
  const logBytes = (await stat(path.join(home, 'log', 'switchboard.log')).catch(() => ({ size: 0 }))).size;

  const [start, middle, end] = samples;
  const growth = (end.rssMiB - start.rssMiB) / start.rssMiB;
  const snap = stats.snapshot();
  const pick = (key) => Object.fromEntries([idle, beforeLoad, start, middle, end, afterClients].map((s) => [s.label, s[key]]));
  const report = {
    subject: SUBJECT,
    minutes: MINUTES,
    clients: CLIENTS,
    inFlightPerClient: IN_FLIGHT,
    upstreams: UPSTREAMS.map(describeUpstream),
    ...snap,
    callsPerSecond: Math.round(snap.calls / loadSeconds),
    warmupSeconds: Math.round(WARMUP_MS / 1000),
    rss: { startMiB: start.rssMiB, middleMiB: middle.rssMiB, endMiB: end.rssMiB, growthPercent: Math.round(growth * 1000) / 10, flagged: growth > RSS_GROWTH_LIMIT },
    rssMiB: pick('rssMiB'),
    ...(SUBJECT === 'manager' ? { heapUsedMiB: pick('heapMiB') } : {}),
    ...(heapAtEnd ? { liveHeapAfterLastFullGcMiB: pick('liveHeapMiB'), committedHeapMiB: pick('committedHeapMiB'), fullGcs: heapAtEnd.fullGcs } : {}),
    openFds: pick('fds'),
    fdKinds: pick('fdKinds'),
    childProcesses: { ...pick('childProcesses'), afterClose: leftAfterClose },
    upstreamProcesses: { perStdioUpstream: 1, stdioUpstreams: STDIO_UPSTREAMS, samples: processCounts.length, min: Math.min(...processCounts), max: Math.max(...processCounts), afterClientsClosed: afterClientsCount },
    childrenRssMiB: pick('childrenRssMiB'),
    upstreamStatesAtEnd: statusAtEnd,
    exit,
    logKiB: Math.round(logBytes / 1024),
  };
  process.stdout.write(`\n${JSON.stringify(report, null, 2)}\n`);
  if (flags.json) await writeFile(flags.json, `${JSON.stringify(report, null, 2)}\n`);
  const problems = [];
  if (report.rss.flagged) problems.push(`${SUBJECT} RSS grew ${report.rss.growthPercent}% (limit ${RSS_GROWTH_LIMIT * 100}%)`);
  const flat = report.upstreamProcesses;
  if (flat.max > STDIO_UPSTREAMS) problems.push(`up to ${flat.max} upstream processes for ${STDIO_UPSTREAMS} stdio upstreams and ${CLIENTS} clients: the count must stay flat`);
  if (afterClientsCount > STDIO_UPSTREAMS) problems.push(`${afterClientsCount} upstream processes after every session was closed (${STDIO_UPSTREAMS} stdio upstreams)`);
  if (leftAfterClose !== 0) problems.push(`${leftAfterClose} processes left after close`);
  if (end.fds > start.fds * 1.2 + 10) problems.push(`open file descriptors grew from ${start.fds} to ${end.fds}`);
  if (exit.code !== 0) problems.push(`${SUBJECT} exited with ${exit.code ?? exit.signal}${stderrTail ? `; stderr ends: ${stderrTail.slice(-2000)}` : ''}`);
  if (Object.keys(snap.failuresByCause).some((k) => k.endsWith(': wrong result'))) problems.push('wrong results');
  for (const u of HEALTHY) if (snap.byUpstream[u].failed > 0) problems.push(`healthy upstream ${u} had ${snap.byUpstream[u].failed} failed calls`);
  process.stdout.write(problems.length === 0 ? '\nsoak: OK\n' : `\nsoak: PROBLEMS\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} finally {
  await subject?.close().catch(() => {});
  for (const h of http.values()) h.child.kill('SIGKILL');
  // Anything still carrying the marker (a crashed upstream's leftovers) goes too.
  await killMarked(MARKER);
  await rm(home, { recursive: true, force: true });
}
