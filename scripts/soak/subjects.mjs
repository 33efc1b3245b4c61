// What the soak puts under load, behind one shape: {name, pid, exclude, connect(id) → {call, tools,
// close}, status(), close()}. The gateway: the built CLI `switchboard serve --http` as a child process,
// each client its own MCP session over Streamable HTTP. The manager: an in-process connection manager.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { configToml, NODE, REPO, upstreamTable } from './upstreams.mjs';

const BIN = path.join(REPO, 'bin/switchboard.js');
const STDERR_KEEP = 64 * 1024;

/** The text of a call result; an error result throws with its text, so it is counted by cause. */
function resultText(result) {
  const text = result.content?.[0]?.text;
  if (result.isError) throw new Error(typeof text === 'string' ? text : 'error result without text');
  return text;
}

/** `--trace-gc` line of a full GC: "Mark-Compact 72.7 (195.8) -> 36.0 (195.8) MB" (live after it, committed). */
const FULL_GC = /Mark-Compact (?:\(reduce\) )?[\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB/;

export async function startGatewaySubject({ home, upstreams, http, marker, traceGc }) {
  await writeFile(path.join(home, 'config.toml'), configToml(upstreams, { http, marker }));
  const token = randomBytes(24).toString('hex');
  const tokenFile = path.join(home, 'token');
  await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
  const work = path.join(home, 'work');
  await mkdir(work, { recursive: true });
  // With --trace-gc the gateway's node reports every GC on stdout (after the "listening on" line):
  // the heap left after each full GC is its live heap, what RSS alone cannot tell from lazy GC.
  const child = spawn(NODE, [...(traceGc ? ['--trace-gc'] : []), BIN, 'serve', '--http', '127.0.0.1:0', '--token-file', tokenFile], {
    env: { ...process.env, SWITCHBOARD_HOME: home },
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let heap = { liveMiB: null, committedMiB: null, fullGcs: 0 };
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr = (stderr + d).slice(-STDERR_KEEP)));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    let partial = '';
    let found;
    const timer = setTimeout(() => reject(new Error(`serve printed no "listening on" line in 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      const lines = (partial + d).split('\n');
      partial = lines.pop().slice(-STDERR_KEEP);
      for (const line of lines) {
        const gc = FULL_GC.exec(line);
        if (gc) heap = { liveMiB: Number(gc[1]), committedMiB: Number(gc[2]), fullGcs: heap.fullGcs + 1 };
        found ??= /^listening on (\S+)$/.exec(line)?.[1];
      }
      if (!found) return;
      clearTimeout(timer);
      resolve(found);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code ?? signal}) before listening; stderr: ${stderr}`));
    });
  });
  const clients = [];
  return {
    name: 'gateway',
    pid: child.pid,
    url,
    exclude: [],
    exited,
    stderrTail: () => stderr,
    heap: () => (traceGc ? heap : undefined),
    async connect(id) {
      let client;
      let transport;
      // A client reconnects when its first request hits a keep-alive socket the server has just
      // closed (ECONNRESET: "fetch failed"), as real clients do; a third failure is fatal.
      for (let attempt = 1; ; attempt++) {
        client = new Client({ name: `soak-client-${id}`, version: '1.0.0' });
        transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
        try {
          await client.connect(transport);
          break;
        } catch (err) {
          await client.close().catch(() => {});
          if (attempt === 3) throw new Error(`client ${id} could not connect: ${err?.cause?.message ?? err?.message ?? err}`, { cause: err });
          process.stderr.write(`client ${id}: connect failed (${err?.cause?.message ?? err?.message}); retrying\n`);
        }
      }
      const conn = {
        call: async (server, tool, args) => resultText(await client.callTool({ name: `mcp__${server}__${tool}`, arguments: args })),
        tools: async () => (await client.listTools()).tools.map((t) => t.name),
        async close() {
          // DELETE the session, so the gateway closes its upstream connections now, not at idle timeout.
          await transport.terminateSession().catch(() => {});
          await client.close().catch(() => {});
        },
      };
      clients.push(conn);
      return conn;
    },
    /** Per upstream: in how many sessions' catalogs its tools are listed. */
    async status() {
      const counts = Object.fromEntries(upstreams.map((u) => [u.name, 0]));
      for (const c of clients) {
        const names = await c.tools().catch(() => []);
        for (const u of upstreams) if (names.includes(`mcp__${u.name}__echo`)) counts[u.name]++;
      }
      return Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, `listed in ${n}/${clients.length} sessions`]));
    },
    /** SIGTERM (the gateway closes every session and upstream), SIGKILL after 20 s. */
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export async function startManagerSubject({ home, upstreams, http, marker }) {
  const { parseMcpServerConfig } = await import('../../dist/config/index.js');
  const { createDefaultClientFactory, McpConnectionManager } = await import('../../dist/mcp/index.js');
  const { createFileLogger } = await import('../../dist/util/index.js');
  const logger = createFileLogger(path.join(home, 'log', 'switchboard.log'), { level: 'info' });
  const servers = {};
  for (const u of upstreams) servers[u.name] = parseMcpServerConfig(u.name, upstreamTable(u, { http, marker })).config;
  const manager = new McpConnectionManager({ servers }, { createClient: createDefaultClientFactory({ logger, environments: {} }), logger });
  const summary = await manager.waitForStartup();
  if (summary.failed.length > 0) throw new Error(`upstreams failed to start: ${JSON.stringify(summary.failed)}`);
  return {
    name: 'manager',
    pid: process.pid,
    // The HTTP upstreams are this script's own children, not the manager's.
    exclude: [...http.values()].map((h) => h.child.pid),
    async connect() {
      return {
        call: async (server, tool, args) => resultText(await manager.callTool(`mcp__${server}__${tool}`, args)),
        close: async () => {},
      };
    },
    status: async () => Object.fromEntries(manager.status().map((s) => [s.name, s.state])),
    close: async () => {
      await manager.close();
      return { code: 0, signal: null };
    },
  };
}
