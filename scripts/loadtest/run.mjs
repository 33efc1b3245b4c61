// One load-test run against a cluster: clients in parallel for `seconds`, one replica of each server
// killed (kill -9) at half time when `kill` is set, then the figures: requests, failures split by
// where they were in flight, latency, turns resumed elsewhere, CPU, memory and database transactions.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import path from 'node:path';
import { ask2026, call2026, makeRecorder, retry2026, serves2026, Session2025 } from './clients.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

function rssBytes(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return 0;
  }
}

async function transactions(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('select sum(xact_commit + xact_rollback)::bigint as n from pg_stat_database');
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/** The gateway's name for the upstream's echo tool (the catalog's naming decides it). */
async function echoToolName(session) {
  const result = await session.request('tools/list');
  const name = result.tools.find((t) => t.name.endsWith('echo'))?.name;
  if (!name) throw new Error(`the gateway offers no echo tool: ${result.tools.map((t) => t.name).join(', ')}`);
  return name;
}

/** The gateway tool whose calls ask their client (a 2026-07-28 upstream's input_required, see MODERN_UPSTREAM_TOML). */
const ASK_TOOL = 'mcp__modern__deploy';
const MODERN_UPSTREAM = path.resolve(import.meta.dirname, '../../test/fixtures/mcp/stdio-v2-server.mjs');
/** Gateway config the load test's cluster needs besides its demo upstream (startCluster's gatewayToml). */
export const MODERN_UPSTREAM_TOML = [
  '[mcp_servers.modern]',
  `command = ${JSON.stringify(process.execPath)}`,
  `args = [${JSON.stringify(MODERN_UPSTREAM)}]`,
  'env = { FIXTURE_SERVE = "modern-only", FIXTURE_INPUT_REQUIRED = "1" }',
  '',
].join('\n');

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

export async function runLoad(cluster, { seconds, clients, kill }) {
  const rec = makeRecorder();
  const deadline = Date.now() + seconds * 1000;
  const replicas = [...cluster.agents, ...cluster.gateways];
  const cpu0 = new Map(replicas.map((r) => [r.pid, cpuSeconds(r.pid)]));
  const tx0 = await transactions(cluster.databaseUrl);
  const with2026 = await serves2026(cluster.gatewayUrl, cluster.token);
  const probe = new Session2025(cluster.gatewayUrl, cluster.token);
  await probe.initialize();
  const echoTool = await echoToolName(probe);
  const retries = { total: 0, elsewhere: 0 };
  const victims = kill ? [cluster.agents[1], cluster.gateways[1]].filter(Boolean) : [];
  const killedAddrs = victims.map((r) => `127.0.0.1:${r.port}`);
  let killedAt = null;
  /** When the victims were seen dead: a request routed to one before then was in flight on it. */
  let deadAt = null;
  const resumed = { interrupted: 0, continued: 0 };
  let peakRss = 0;

  const gatewayClient = async () => {
    const s = new Session2025(cluster.gatewayUrl, cluster.token);
    await rec.time('gateway-2025 initialize', (row) => s.initialize(row));
    let i = 0;
    while (Date.now() < deadline) await rec.time('gateway-2025 tools/call', (row) => s.call(echoTool, { text: `m${i++}` }, row));
  };
  const gateway2026Client = async () => {
    let i = 0;
    while (Date.now() < deadline) {
      await rec.time('gateway-2026 tools/call', (row) => call2026(cluster.gatewayUrl, cluster.token, echoTool, { text: `s${i++}` }, row));
      if (i % 4 !== 0) continue;
      // Every fourth call asks its client: an input_required round, then the retry nginx sends wherever.
      // The clients ask at the same time: each question of the 2026-07-28 upstream goes to its own caller.
      let first = null;
      const asked = await rec.time('gateway-2026 input_required', async (row) => {
        first = await ask2026(cluster.gatewayUrl, cluster.token, ASK_TOOL, `e${i}`, row);
      });
      if (!asked.ok) continue;
      const retried = await rec.time('gateway-2026 retry', (row) => retry2026(cluster.gatewayUrl, cluster.token, ASK_TOOL, `e${i}`, first, row));
      retries.total += 1;
      if (retried.ok && retried.upstream !== asked.upstream) retries.elsewhere += 1;
      // The waiting request was in flight on the replica that held it: a retry it died under failed with it.
      if (!retried.ok && /no longer waiting/.test(retried.error)) retried.held = { on: asked.upstream, since: asked.start };
    }
  };
  const agentClient = async () => {
    const s = new Session2025(cluster.agentUrl, cluster.token);
    await rec.time('agent-2025 initialize', (row) => s.initialize(row));
    let threadId = null;
    await rec.time('agent-2025 codex', async (row) => {
      threadId = (await s.call('codex', { prompt: 'start [sleep 100]' }, row)).structuredContent.threadId;
    });
    let interrupted = false;
    while (Date.now() < deadline && threadId) {
      const row = await rec.time('agent-2025 codex-reply', (r) => s.call('codex-reply', { threadId, prompt: 'go on [sleep 300]' }, r));
      if (!row.ok && killedAt !== null && !interrupted) {
        interrupted = true;
        resumed.interrupted += 1;
      } else if (row.ok && interrupted) {
        interrupted = false;
        resumed.continued += 1;
      } else if (!row.ok && /still running/.test(row.error)) {
        await sleep(500); // the killed turn's lease has not expired yet
      }
    }
  };

  const workers = [];
  for (let i = 0; i < clients; i += 1) {
    const pick = i % 3;
    if (pick === 0) workers.push(agentClient());
    else if (pick === 1 || !with2026) workers.push(gatewayClient());
    else workers.push(gateway2026Client());
  }
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, replicas.filter((r) => r.alive).reduce((n, r) => n + rssBytes(r.pid), 0));
  }, 500);
  if (victims.length) {
    await sleep((seconds * 1000) / 2);
    killedAt = Date.now();
    for (const v of victims) cpu0.set(`killed:${v.pid}`, cpuSeconds(v.pid));
    await Promise.all(victims.map((v) => v.kill('SIGKILL')));
    deadAt = Date.now();
  }
  await Promise.all(workers);
  clearInterval(sampler);
  const tx1 = await transactions(cluster.databaseUrl);
  let cpu = 0;
  for (const r of replicas) cpu += (r.alive ? cpuSeconds(r.pid) : (cpu0.get(`killed:${r.pid}`) ?? 0)) - (cpu0.get(r.pid) ?? 0);

  const rows = rec.rows;
  const failed = rows.filter((r) => !r.ok);
  const onKilled = failed.filter(
    (r) =>
      deadAt !== null &&
      ((r.start <= deadAt && killedAddrs.some((a) => r.upstream.includes(a) || r.upstream === '')) ||
        (r.held !== undefined && r.held.since <= deadAt && killedAddrs.some((a) => r.held.on.includes(a)))),
  );
  const other = failed.filter((r) => !onKilled.includes(r) && !/still running/.test(r.error));
  const busy = failed.filter((r) => !onKilled.includes(r) && /still running/.test(r.error));
  const ms = rows.filter((r) => r.ok).map((r) => r.ms).sort((a, b) => a - b);
  const byKind = {};
  for (const r of rows) {
    byKind[r.kind] ??= { requests: 0, failed: 0, ms: [] };
    byKind[r.kind].requests += 1;
    if (!r.ok) byKind[r.kind].failed += 1;
    else byKind[r.kind].ms.push(r.ms);
  }
  for (const k of Object.values(byKind)) {
    k.ms.sort((a, b) => a - b);
    k.p50 = pct(k.ms, 50);
    k.p99 = pct(k.ms, 99);
    delete k.ms;
  }
  return {
    replicas: cluster.agents.length,
    seconds,
    clients,
    served2026: with2026,
    requests: rows.length,
    failed: failed.length,
    failedInFlightOnKilled: onKilled.length,
    failedBusyAfterKill: busy.length,
    failedOther: other.length,
    otherErrors: [...new Set(other.map((r) => `${r.kind} via ${r.upstream || '?'} at ${killedAt === null ? '' : `kill${r.start - killedAt >= 0 ? '+' : ''}${r.start - killedAt} ms`}: ${r.error.split('\n')[0]}`))].slice(0, 5),
    p50: pct(ms, 50),
    p99: pct(ms, 99),
    requestsPerSecond: rows.length / seconds,
    retries2026: retries.total,
    retries2026Elsewhere: retries.elsewhere,
    turnsInterrupted: resumed.interrupted,
    turnsResumedElsewhere: resumed.continued,
    cpuSeconds: cpu,
    requestsPerCpuSecond: cpu > 0 ? rows.length / cpu : 0,
    peakRssBytes: peakRss,
    dbTransactions: tx1 - tx0,
    dbTransactionsPerRequest: (tx1 - tx0) / Math.max(1, rows.length),
    byKind,
  };
}
