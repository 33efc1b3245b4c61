// The soak's 10 upstreams (five healthy stdio chaos-server instances and five chaotic ones, stdio and
// HTTP), the HTTP ones started by this script, and their config.toml for the gateway.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHAOS = path.join(REPO, 'test/fixtures/chaos-server.ts');
export const NODE = process.execPath;
export const HEALTHY = ['s1', 's2', 's3', 's4', 's5'];

/** name → kind and chaos-server flags. `crashAfter`: calls after which the crashy server exits. */
export function soakUpstreams({ crashAfter }) {
  return [
    ...HEALTHY.map((name) => ({ name, kind: 'stdio', args: [] })),
    { name: 'out_of_order', kind: 'stdio', args: ['--mode', 'out-of-order'] },
    { name: 'unknown_ids', kind: 'stdio', args: ['--mode', 'unknown-ids'] },
    { name: 'crashy', kind: 'stdio', args: ['--mode', 'exit-after-calls', '--calls', String(crashAfter)] },
    { name: 'expiring', kind: 'http', args: ['--mode', 'http-expire-session,http-drop-sse', '--expire-every', '50', '--rate-drop', '0.01'] },
    { name: 'flaky_http', kind: 'http', args: ['--mode', 'http-500', '--rate-500', '0.005'] },
  ];
}

export function describeUpstream(u) {
  return `${u.name} (${u.kind}${u.args.length ? ` ${u.args.join(' ')}` : ''})`;
}

function startHttpUpstream(u, { marker, seed }) {
  const child = spawn(NODE, [CHAOS, '--marker', marker, '--http', '--seed', seed, ...u.args], { stdio: ['ignore', 'pipe', 'ignore'] });
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

/** Starts the HTTP upstreams; returns name → {child, url}. */
export async function startHttpUpstreams(upstreams, opts) {
  const http = new Map();
  for (const u of upstreams.filter((x) => x.kind === 'http')) http.set(u.name, await startHttpUpstream(u, opts));
  return http;
}

/** The table of one upstream as config.toml would give it (and parseMcpServerConfig takes it). */
export function upstreamTable(u, { http, marker }) {
  const table = u.kind === 'http' ? { url: http.get(u.name).url } : { command: NODE, args: [CHAOS, '--marker', marker, ...u.args] };
  return { ...table, tool_timeout_sec: 30 };
}

export function configToml(upstreams, opts) {
  return upstreams
    .map((u) => {
      const lines = Object.entries(upstreamTable(u, opts)).map(([k, v]) => `${k} = ${Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : JSON.stringify(v)}`);
      return `[mcp_servers.${u.name}]\n${lines.join('\n')}\n`;
    })
    .join('\n');
}
