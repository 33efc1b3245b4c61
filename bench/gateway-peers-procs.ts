// The gateways of bench/gateway-peers.bench.ts as processes: starting each one (switchboard's built
// CLI, mcp-proxy stateful and --stateless, supergateway --stateful) in front of the same stdio
// server on loopback, sampling its process tree from /proc (process count, upstream count, summed
// VmRSS) and killing the whole tree.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuTimeMs, descendants, isAlive, killQuietly } from '../test/support/process-tree.js';
import { freePort } from '../test/support/free-port.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const NODE = process.execPath;
export const TINY = path.join(REPO, 'bench', 'fixtures', 'tiny-server.mjs');
const START_TIMEOUT_MS = 30_000;

/** switchboard again, its upstream kept running while nobody uses it (serve's default stops it after 60 s). */
export const KEPT = 'switchboard, mcp_stop_after_idle_sec = 0';
export type GatewayName = 'switchboard' | typeof KEPT | 'mcp-proxy' | 'mcp-proxy --stateless' | 'supergateway';

export interface Gateway {
  name: GatewayName;
  child: ChildProcess;
  url: string;
  /** The tiny server's tool as this gateway names it. */
  tool: string;
  /** The last stderr the gateway wrote, for error messages. */
  stderr(): string;
}

export interface TreeSample {
  /** The gateway's process and every live descendant. */
  processes: number;
  /** Descendants that are the stdio server itself (a node process running the fixture). */
  upstreams: number;
  rssMb: number;
}

/** The CLI entry of an installed npm package, from its package.json `bin`. */
function packageBin(pkg: string): string {
  const dir = path.join(REPO, 'node_modules', pkg);
  const bin = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> }).bin;
  return path.join(dir, typeof bin === 'string' ? bin : bin[pkg]!);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Spawns `args` under node in its own process group; resolves once `ready` says so. */
async function launch(name: GatewayName, args: string[], env: NodeJS.ProcessEnv, cwd: string, ready: (stdout: string) => Promise<string | undefined>, tool: string): Promise<Gateway> {
  const child = spawn(NODE, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(-4096)));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2048)));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited at start (${child.exitCode ?? child.signalCode}): ${stderr.trim()}`);
    const url = await ready(stdout);
    if (url) return { name, child, url, tool, stderr: () => stderr };
    if (Date.now() > deadline) {
      await killTree(child);
      throw new Error(`${name} not serving after ${START_TIMEOUT_MS} ms: ${stderr.trim()}`);
    }
    await sleep(50);
  }
}

/** A scratch home for one gateway; switchboard reads its config.toml there. */
export async function scratchHome(): Promise<{ home: string; env: NodeJS.ProcessEnv; remove(): Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-peers-'));
  await writeFile(path.join(home, 'config.toml'), `[mcp_servers.tiny]\ncommand = ${JSON.stringify(NODE)}\nargs = [${JSON.stringify(TINY)}]\n`);
  return { home, env: { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_HOME: home }, remove: () => rm(home, { recursive: true, force: true }) };
}

export async function startGateway(name: GatewayName, home: string, env: NodeJS.ProcessEnv): Promise<Gateway> {
  if (name === 'switchboard' || name === KEPT) {
    const idle = name === KEPT ? ['-c', 'mcp_stop_after_idle_sec=0'] : [];
    const args = [path.join(REPO, 'bin', 'switchboard.js'), 'serve', '--http', '127.0.0.1:0', '--insecure-no-auth', '--transparent', ...idle];
    return launch(name, args, env, home, async (out) => /listening on (http:\/\/\S+)/.exec(out)?.[1], 'tool_1');
  }
  const port = await freePort();
  const ready = async () => ((await accepts(port)) ? `http://127.0.0.1:${port}/mcp` : undefined);
  if (name === 'mcp-proxy' || name === 'mcp-proxy --stateless') {
    const mode = name === 'mcp-proxy' ? [] : ['--stateless'];
    return launch(name, [packageBin('mcp-proxy'), '--host', '127.0.0.1', '--port', String(port), '--server', 'stream', ...mode, '--', NODE, TINY], env, home, ready, 'tool_1');
  }
  // supergateway runs --stdio through a shell, so the command is one string.
  const stdio = `${JSON.stringify(NODE)} ${JSON.stringify(TINY)}`;
  const args = [packageBin('supergateway'), '--stdio', stdio, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'];
  return launch(name, args, env, home, ready, 'tool_1');
}

async function rssKb(pid: number): Promise<number> {
  try {
    return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited while we looked
  }
}

/** CPU time (user + system, ms) the tree's live processes have used so far: a difference of two samples is what the tree spent between them. */
export async function treeCpuMs(root: number): Promise<number> {
  const below = await descendants(root);
  return [root, ...below.map((p) => p.pid)].reduce((sum, pid) => sum + cpuTimeMs(pid), 0);
}

export async function sampleTree(root: number): Promise<TreeSample> {
  const below = await descendants(root);
  const upstreams = below.filter((p) => path.basename(p.command.split(' ')[0] ?? '') === 'node' && p.command.includes(TINY)).length;
  const kb = (await Promise.all([root, ...below.map((p) => p.pid)].map(rssKb))).reduce((a, b) => a + b, 0);
  return { processes: (isAlive(root) ? 1 : 0) + below.length, upstreams, rssMb: kb / 1024 };
}

/** Samples the tree every `everyMs` until stopped; keeps the largest figures seen. */
export function peakSampler(root: number, everyMs = 200): { take(): Promise<void>; stop(): Promise<TreeSample> } {
  const peak: TreeSample = { processes: 0, upstreams: 0, rssMb: 0 };
  let running = true;
  const take = async () => {
    const s = await sampleTree(root);
    peak.processes = Math.max(peak.processes, s.processes);
    peak.upstreams = Math.max(peak.upstreams, s.upstreams);
    peak.rssMb = Math.max(peak.rssMb, s.rssMb);
  };
  const loop = (async () => {
    while (running) {
      await take();
      await sleep(everyMs);
    }
  })();
  return {
    take,
    async stop() {
      running = false;
      await loop;
      await take();
      return peak;
    },
  };
}

/** SIGTERM to the gateway's group and every descendant, then SIGKILL whatever is left after 3 s. */
export async function killTree(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const pids = [pid, ...(await descendants(pid)).map((p) => p.pid)];
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone
    }
  };
  group('SIGTERM');
  killQuietly(pids, 'SIGTERM');
  const deadline = Date.now() + 3_000;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(50);
  group('SIGKILL');
  killQuietly(pids.filter(isAlive), 'SIGKILL');
}
