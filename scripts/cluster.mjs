#!/usr/bin/env node
// `npm run cluster -- --replicas 3 [--verbose]`: a throwaway PostgreSQL, N replicas of `mcp-server --http`
// and of `serve --http` on loopback pointed at it, and nginx in front (round robin, no stickiness).
// Prints the URLs and the bearer token; stops everything on Ctrl-C, SIGTERM, or when its parent exits.
import { parseArgs } from 'node:util';
import { startCluster } from './cluster/cluster.mjs';

const { values: flags } = parseArgs({
  options: { replicas: { type: 'string', default: '3' }, verbose: { type: 'boolean', default: false } },
});
const replicas = Number(flags.replicas);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16) {
  console.error('--replicas must be a whole number from 1 to 16');
  process.exit(2);
}

const started = Date.now();
const cluster = await startCluster({ replicas, log: flags.verbose ? (line) => console.error(line) : undefined });
const lines = [
  `cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s (${replicas} replica${replicas === 1 ? '' : 's'} of each server)`,
  '',
  `  agent server (codex, codex-reply) via nginx:  ${cluster.agentUrl}`,
  `  gateway (serve) via nginx:                    ${cluster.gatewayUrl}`,
  `  bearer token:                                 ${cluster.token}`,
  `  PostgreSQL:                                   ${cluster.databaseUrl}`,
  `  model (echo):                                 ${cluster.modelUrl}`,
  '',
  ...cluster.agents.map((r) => `  ${r.name.padEnd(10)} pid ${String(r.pid).padEnd(8)} ${r.url}`),
  ...cluster.gateways.map((r) => `  ${r.name.padEnd(10)} pid ${String(r.pid).padEnd(8)} ${r.url}`),
  '',
  'Ctrl-C stops everything.',
];
console.log(lines.join('\n'));

let stopping = false;
async function shutdown(why) {
  if (stopping) return;
  stopping = true;
  console.error(`stopping the cluster (${why})`);
  await cluster.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGHUP', () => void shutdown('SIGHUP'));
// When the parent goes away we are re-parented: stop with it (the children die with us regardless).
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void shutdown('parent exited');
}, 500);
