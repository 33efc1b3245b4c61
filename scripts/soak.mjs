#!/usr/bin/env node
// `npm run soak [-- --minutes N] [--callers 8] [--json FILE]`: a long run outside CI, on the built code
// (dist/). One connection manager (later also the gateway: add a subject below) with 10 upstreams —
// five healthy stdio servers and five chaotic ones (stdio and HTTP) — under a constant stream of calls
// from concurrent callers. Reports calls, failures by cause, RSS at start/middle/end (flagging growth
// beyond 20%), open file descriptors and child processes; exits 1 when something is wrong.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseMcpServerConfig } from '../dist/config/index.js';
import { createDefaultClientFactory, McpConnectionManager } from '../dist/mcp/index.js';
import { createLogger, errorMessage, fileLogWrite } from '../dist/util/index.js';

const { values: flags } = parseArgs({
  options: { minutes: { type: 'string', default: '20' }, callers: { type: 'string', default: '8' }, json: { type: 'string' }, seed: { type: 'string', default: '1' } },
});
const MINUTES = Number(flags.minutes);
const CALLERS = Number(flags.callers);
if (!(MINUTES > 0) || !(CALLERS > 0)) throw new Error('--minutes and --callers must be positive numbers');
const DURATION_MS = MINUTES * 60_000;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHAOS = path.join(REPO, 'test/fixtures/chaos-server.ts');
const NODE = process.execPath;
const MARKER = `soak-${process.pid}-${Date.now()}`;
const RSS_GROWTH_LIMIT = 0.2;
/** The "start" sample is taken once the load has run this long (JIT, pools and buffers warm up first). */
const WARMUP_MS = Math.min(Math.max(DURATION_MS * 0.1, 10_000), 120_000);

/** The 10 upstreams: name → how it misbehaves. HTTP ones are started by this script. */
const UPSTREAMS = [
  ...['s1', 's2', 's3', 's4', 's5'].map((name) => ({ name, kind: 'stdio', args: [] })),
  { name: 'out_of_order', kind: 'stdio', args: ['--mode', 'out-of-order'] },
  { name: 'unknown_ids', kind: 'stdio', args: ['--mode', 'unknown-ids'] },
  { name: 'crashy', kind: 'stdio', args: ['--mode', 'exit-after-calls', '--calls', '2000'] },
  { name: 'expiring', kind: 'http', args: ['--mode', 'http-expire-session,http-drop-sse', '--expire-every', '50', '--rate-drop', '0.01'] },
  { name: 'flaky_http', kind: 'http', args: ['--mode', 'http-500', '--rate-500', '0.005'] },
];

// ---------------------------------------------------------------------------------------------
// Observing this process: RSS, file descriptors, child processes (Linux /proc).

async function openFds() {
  return (await readdir('/proc/self/fd')).length;
}

async function descendants(root = process.pid) {
  const parents = new Map();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const s = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = s.slice(s.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone
    }
  }
  const out = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [pid, ppid] of parents) {
      if (ppid !== parent) continue;
      out.push(pid);
      queue.push(pid);
    }
  }
  return out;
}

async function sample(label, httpPids) {
  const children = await descendants();
  return {
    label,
    atSeconds: Math.round((performance.now() - started) / 1000),
    rssMiB: Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10,
    heapMiB: Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10,
    fds: await openFds(),
    // The HTTP upstreams are this script's own children, not the manager's.
    childProcesses: children.filter((pid) => !httpPids.includes(pid)).length,
  };
}

// ---------------------------------------------------------------------------------------------
// The subject: today the connection manager. The gateway joins as a second subject with the same
// shape ({call, status, close}) once `switchboard serve` exists.

function startHttpUpstream(u) {
  const child = spawn(NODE, [CHAOS, '--marker', MARKER, '--http', '--seed', flags.seed, ...u.args], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const url = /^(http:\/\/\S+)\n/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`${u.name} exited with ${code} before listening`)));
  });
}

async function startManagerSubject(home, http) {
  const logger = createLogger(fileLogWrite(path.join(home, 'log', 'switchboard.log')), { level: 'info' });
  const servers = {};
  for (const u of UPSTREAMS) {
    const table = u.kind === 'http' ? { url: http.get(u.name).url } : { command: NODE, args: [CHAOS, '--marker', MARKER, ...u.args] };
    servers[u.name] = parseMcpServerConfig(u.name, { ...table, tool_timeout_sec: 30 }).config;
  }
  const manager = new McpConnectionManager({ servers }, { createClient: createDefaultClientFactory({ logger, environments: {} }), logger });
  const summary = await manager.waitForStartup();
  if (summary.failed.length > 0) throw new Error(`upstreams failed to start: ${JSON.stringify(summary.failed)}`);
  return {
    name: 'manager',
    call: (server, tool, args) => manager.callTool(`mcp__${server}__${tool}`, args),
    status: () => manager.status().map((s) => `${s.name}:${s.state}`),
    close: () => manager.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// Load

/** mulberry32: reproducible choices for a given --seed. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An error message with its variable parts (numbers, URLs, paths) blanked: one line per cause. */
function causeOf(err) {
  return errorMessage(err)
    .split('\n')[0]
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(/`\/[^`]*`/g, '`<path>`')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 160);
}

async function runCaller(subject, id, keepGoing, stats) {
  const random = seeded(Number(flags.seed) * 1000 + id);
  const payload = 'x'.repeat(4096);
  for (let i = 0; keepGoing(); i++) {
    const upstream = UPSTREAMS[Math.floor(random() * UPSTREAMS.length)].name;
    const useAdd = random() < 0.3;
    const a = Math.floor(random() * 1000);
    const text = `${id}:${i}:${payload.slice(0, Math.floor(random() * payload.length))}`;
    const t0 = performance.now();
    try {
      const result = await subject.call(upstream, useAdd ? 'add' : 'echo', useAdd ? { a, b: 1 } : { text });
      const got = result.content?.[0]?.text;
      const want = useAdd ? String(a + 1) : text;
      if (got !== want) stats.fail('wrong result', upstream);
      else stats.ok(upstream, performance.now() - t0);
    } catch (err) {
      stats.fail(causeOf(err), upstream);
      // A failed upstream answers at once; do not spin on it.
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

function makeStats() {
  const byUpstream = Object.fromEntries(UPSTREAMS.map((u) => [u.name, { ok: 0, failed: 0 }]));
  const causes = new Map();
  let calls = 0;
  let latencyTotal = 0;
  let latencyMax = 0;
  return {
    ok(upstream, ms) {
      calls++;
      byUpstream[upstream].ok++;
      latencyTotal += ms;
      latencyMax = Math.max(latencyMax, ms);
    },
    fail(cause, upstream) {
      calls++;
      byUpstream[upstream].failed++;
      const key = `${upstream}: ${cause}`;
      causes.set(key, (causes.get(key) ?? 0) + 1);
    },
    get calls() {
      return calls;
    },
    snapshot() {
      const ok = Object.values(byUpstream).reduce((n, u) => n + u.ok, 0);
      return {
        calls,
        ok,
        failed: calls - ok,
        meanLatencyMs: ok > 0 ? Math.round((latencyTotal / ok) * 10) / 10 : null,
        maxLatencyMs: Math.round(latencyMax),
        byUpstream,
        failuresByCause: Object.fromEntries([...causes].sort((x, y) => y[1] - x[1])),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------

const started = performance.now();
const home = await mkdtemp(path.join(os.tmpdir(), 'sb-soak-'));
const http = new Map();
let subject;
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  process.stderr.write('\ninterrupted: finishing and reporting\n');
});

try {
  for (const u of UPSTREAMS.filter((x) => x.kind === 'http')) http.set(u.name, await startHttpUpstream(u));
  const httpPids = [...http.values()].map((h) => h.child.pid);
  subject = await startManagerSubject(home, http);
  process.stdout.write(`soak: ${subject.name} with ${UPSTREAMS.length} upstreams, ${CALLERS} callers, ${MINUTES} min (node ${process.version}, ${os.cpus().length} CPUs)\n`);

  const stats = makeStats();
  const beforeLoad = await sample('before load', httpPids);
  const samples = [];
  const loadStart = performance.now();
  const deadline = loadStart + DURATION_MS;
  const keepGoing = () => !interrupted && performance.now() < deadline;
  const callers = Array.from({ length: CALLERS }, (_, id) => runCaller(subject, id, keepGoing, stats));
  let middleTaken = false;
  const PRINT_EVERY_MS = Math.min(60_000, Math.max(5_000, DURATION_MS / 10));
  let nextPrint = PRINT_EVERY_MS;
  const ticker = setInterval(async () => {
    const elapsed = performance.now() - loadStart;
    if (samples.length === 0 && elapsed >= WARMUP_MS) samples.push(await sample('start', httpPids));
    if (!middleTaken && samples.length === 1 && elapsed >= DURATION_MS / 2) {
      middleTaken = true;
      samples.push(await sample('middle', httpPids));
    }
    if (elapsed < nextPrint) return;
    nextPrint += PRINT_EVERY_MS;
    const s = await sample('progress', httpPids);
    const snap = stats.snapshot();
    process.stdout.write(`  ${Math.round(elapsed / 1000)}s: ${snap.calls} calls (${Math.round(snap.calls / (elapsed / 1000))}/s), ${snap.failed} failed; RSS ${s.rssMiB} MiB, ${s.fds} fds, ${s.childProcesses} children\n`);
  }, 5_000);
  ticker.unref();
  await Promise.all(callers);
  clearInterval(ticker);
  if (samples.length === 0) samples.push(await sample('start', httpPids));
  if (samples.length === 1) samples.push(await sample('middle', httpPids));
  samples.push(await sample('end', httpPids));
  const statusAtEnd = subject.status();
  await subject.close();
  subject = undefined;
  const afterClose = (await descendants()).filter((pid) => !httpPids.includes(pid)).length;
  const logBytes = (await stat(path.join(home, 'log', 'switchboard.log')).catch(() => ({ size: 0 }))).size;

  const [start, middle, end] = samples;
  const growth = (end.rssMiB - start.rssMiB) / start.rssMiB;
  const snap = stats.snapshot();
  const report = {
    subject: 'manager',
    minutes: MINUTES,
    callers: CALLERS,
    upstreams: UPSTREAMS.map((u) => `${u.name} (${u.kind}${u.args.length ? ` ${u.args.join(' ')}` : ''})`),
    ...snap,
    callsPerSecond: Math.round(snap.calls / ((performance.now() - loadStart) / 1000)),
    warmupSeconds: Math.round(WARMUP_MS / 1000),
    rssBeforeLoadMiB: beforeLoad.rssMiB,
    rss: { startMiB: start.rssMiB, middleMiB: middle.rssMiB, endMiB: end.rssMiB, growthPercent: Math.round(growth * 1000) / 10, flagged: growth > RSS_GROWTH_LIMIT },
    heapUsedMiB: { start: start.heapMiB, middle: middle.heapMiB, end: end.heapMiB },
    openFds: { beforeLoad: beforeLoad.fds, start: start.fds, middle: middle.fds, end: end.fds },
    childProcesses: { beforeLoad: beforeLoad.childProcesses, start: start.childProcesses, middle: middle.childProcesses, end: end.childProcesses, afterClose },
    upstreamStatesAtEnd: statusAtEnd,
    logMiB: Math.round((logBytes / 2 ** 20) * 10) / 10,
  };
  process.stdout.write(`\n${JSON.stringify(report, null, 2)}\n`);
  if (flags.json) await writeFile(flags.json, `${JSON.stringify(report, null, 2)}\n`);
  const problems = [];
  if (report.rss.flagged) problems.push(`RSS grew ${report.rss.growthPercent}% (limit ${RSS_GROWTH_LIMIT * 100}%)`);
  if (afterClose !== 0) problems.push(`${afterClose} child processes left after close`);
  if (end.fds > start.fds + 20) problems.push(`open file descriptors grew from ${start.fds} to ${end.fds}`);
  if (snap.failuresByCause && Object.keys(snap.failuresByCause).some((k) => k.includes('wrong result'))) problems.push('wrong results');
  for (const u of ['s1', 's2', 's3', 's4', 's5']) if (snap.byUpstream[u].failed > 0) problems.push(`healthy upstream ${u} had ${snap.byUpstream[u].failed} failed calls`);
  process.stdout.write(problems.length === 0 ? '\nsoak: OK\n' : `\nsoak: PROBLEMS\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} finally {
  await subject?.close().catch(() => {});
  for (const h of http.values()) h.child.kill('SIGKILL');
  // Anything still carrying the marker (a crashed upstream's leftovers) goes too.
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(MARKER)) {
      try {
        process.kill(Number(entry), 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  await rm(home, { recursive: true, force: true });
}
