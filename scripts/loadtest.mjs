#!/usr/bin/env node
// `npm run loadtest [-- --replicas 3 --seconds 30 --clients 12 --json FILE]`: drives a cluster
// (scripts/cluster) through nginx with 2025 sessions (gateway calls, agent turns on the echo model)
// and 2026-07-28 clients (gateway calls, and input_required calls whose retry lands on any replica), kills one replica of each server mid-run, prints the
// figures; then the same load against a single replica (no kill) for comparison.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startCluster } from './cluster/cluster.mjs';
import { MODERN_UPSTREAM_TOML, runLoad } from './loadtest/run.mjs';

const { values: flags } = parseArgs({
  options: {
    replicas: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '30' },
    clients: { type: 'string', default: '12' },
    json: { type: 'string' },
  },
});
const replicas = Number(flags.replicas);
const seconds = Number(flags.seconds);
const clients = Number(flags.clients);

async function run(n, kill) {
  const cluster = await startCluster({ replicas: n, gatewayToml: MODERN_UPSTREAM_TOML });
  try {
    return await runLoad(cluster, { seconds, clients, kill });
  } finally {
    await cluster.stop();
  }
}

const mib = (b) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
function report(title, r) {
  const lines = [
    `${title}`,
    `  requests made            ${r.requests} in ${r.seconds} s (${r.requestsPerSecond.toFixed(1)}/s), ${r.clients} clients${r.served2026 ? '' : ' (2026-07-28 not served by this build: its clients ran as 2025 gateway clients)'}`,
    `  failed                   ${r.failed}: in flight on the killed replica ${r.failedInFlightOnKilled}, busy thread while the killed turn's lease ran out ${r.failedBusyAfterKill}, other ${r.failedOther}`,
    ...(r.otherErrors.length ? [`  other errors             ${r.otherErrors.join(' | ')}`] : []),
    `  latency                  p50 ${r.p50} ms, p99 ${r.p99} ms`,
    `  2026 retries             ${r.retries2026} input_required calls retried, ${r.retries2026Elsewhere} completed on another replica than the one holding them`,
    `  turns resumed elsewhere  ${r.turnsResumedElsewhere} of ${r.turnsInterrupted} interrupted`,
    `  replica CPU              ${r.cpuSeconds.toFixed(1)} s (${r.requestsPerCpuSecond.toFixed(0)} requests per CPU second)`,
    `  peak RSS, all replicas   ${mib(r.peakRssBytes)}`,
    `  database transactions    ${r.dbTransactions} (${r.dbTransactionsPerRequest.toFixed(1)} per request)`,
    '  by kind:',
    ...Object.entries(r.byKind).map(([k, v]) => `    ${k.padEnd(26)} ${String(v.requests).padStart(6)} requests, ${v.failed} failed, p50 ${v.p50} ms, p99 ${v.p99} ms`),
  ];
  console.log(lines.join('\n'));
}

console.log(`load test on ${os.cpus().length} cores: ${clients} clients for ${seconds} s\n`);
const cluster = await run(replicas, true);
report(`${replicas} replicas behind nginx, one of each server killed at ${seconds / 2} s`, cluster);
console.log('');
const single = await run(1, false);
report('1 replica behind nginx (no kill)', single);
if (flags.json) writeFileSync(flags.json, `${JSON.stringify({ cores: os.cpus().length, cluster, single }, null, 2)}\n`);
process.exitCode = cluster.failedOther === 0 && single.failedOther === 0 && single.failed === 0 ? 0 : 1;
