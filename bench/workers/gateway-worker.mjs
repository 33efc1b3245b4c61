// Measures tools/call latency through `switchboard serve` (the built CLI, its own process) against
// the same upstream called directly, in one fresh process, and prints the figures as JSON.
// bench/gateway.bench.ts drives it; running outside the bench harness keeps its module loader away
// from the clients being timed.
// Usage: node gateway-worker.mjs <stdio|http|inproc> '{"n": 2000}'
// `inproc` runs a gateway session inside this process (in-memory transport to the client, the
// upstream on stdio): what the gateway's own code costs, without the extra process hop.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, connectClient, NODE, percentile, REPO, TINY } from './worker-support.mjs';

const [wire, argJson] = process.argv.slice(2);
const { n } = JSON.parse(argJson ?? '{"n": 2000}');
const TINY_HTTP = path.join(REPO, 'bench', 'fixtures', 'tiny-http-server.mjs');

/** A child that prints a URL on stdout; resolves with it. */
function urlPrinter(args, env) {
  const child = spawn(NODE, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /(http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
  });
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const client = (transport) => connectClient('bench-gateway', transport);

async function measure(ours, oursTool, base) {
  const call = (c, name, text) => c.callTool({ name, arguments: { text } });
  for (let i = 0; i < 200; i++) {
    await call(ours, oursTool, 'w');
    await call(base, 'tool_1', 'w');
  }
  const a = [];
  const b = [];
  // Alternating blocks, so drift on a shared machine hits both sides alike.
  for (let block = 0; block < n / 100; block++) {
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await call(ours, oursTool, 'x');
      a.push(performance.now() - t0);
    }
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await call(base, 'tool_1', 'x');
      b.push(performance.now() - t0);
    }
  }
  return { ours: { p50: percentile(a, 50), p99: percentile(a, 99) }, base: { p50: percentile(b, 50), p99: percentile(b, 99) } };
}

const home = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-gateway-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_HOME: home };
const cleanup = [];
try {
  let result;
  if (wire === 'stdio') {
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.tiny]\ncommand = ${JSON.stringify(NODE)}\nargs = [${JSON.stringify(TINY)}]\n`);
    const ours = await client(new StdioClientTransport({ command: NODE, args: [BIN, 'serve'], env, cwd: home, stderr: 'inherit' }));
    cleanup.push(() => ours.close());
    const base = await client(new StdioClientTransport({ command: NODE, args: [TINY], env, stderr: 'inherit' }));
    cleanup.push(() => base.close());
    result = await measure(ours, 'mcp__tiny__tool_1', base);
  } else if (wire === 'inproc') {
    const { parseMcpServerConfig } = await import('../../dist/config/index.js');
    const { createDefaultClientFactory, McpConnectionManager } = await import('../../dist/mcp/index.js');
    const { GatewayPool, gatewayProduct } = await import('../../dist/gateway/index.js');
    const { startServing } = await import('../../dist/mcp-host/index.js');
    const { nullLogger } = await import('../../dist/util/index.js');
    const tiny = parseMcpServerConfig('tiny', { command: NODE, args: [TINY] }).config;
    const pool = new GatewayPool(
      { name: 'bench-gateway', title: 'bench', version: '0', mode: { kind: 'aggregate' } },
      {
        logger: nullLogger,
        createManager: (setup) =>
          new McpConnectionManager(
            { servers: { tiny } },
            { createClient: createDefaultClientFactory({ logger: nullLogger, environments: {}, env, clientOptions: setup.clientOptions }), logger: nullLogger, handlersFor: setup.handlersFor, onEvent: setup.onEvent },
          ),
      },
    );
    cleanup.push(() => pool.close());
    // The gateway product served as `serve` serves it (the one serving entry), on an in-memory pair.
    const serving = startServing(gatewayProduct(pool), { logger: nullLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = serving.connect(serverSide);
    const ours = await client(clientSide);
    cleanup.push(() => serving.close());
    cleanup.push(() => connection.close());
    cleanup.push(() => ours.close());
    const base = await client(new StdioClientTransport({ command: NODE, args: [TINY], env, stderr: 'inherit' }));
    cleanup.push(() => base.close());
    result = await measure(ours, 'mcp__tiny__tool_1', base);
  } else {
    const upstream = await urlPrinter([TINY_HTTP], env);
    cleanup.push(() => stop(upstream.child));
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.tiny]\nurl = ${JSON.stringify(upstream.url)}\n`);
    const gateway = await urlPrinter([BIN, 'serve', '--http', '127.0.0.1:0', '--insecure-no-auth'], env);
    cleanup.push(() => stop(gateway.child));
    const ours = await client(new StreamableHTTPClientTransport(new URL(gateway.url)));
    cleanup.push(() => ours.close());
    const base = await client(new StreamableHTTPClientTransport(new URL(upstream.url)));
    cleanup.push(() => base.close());
    result = await measure(ours, 'mcp__tiny__tool_1', base);
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
  await rm(home, { recursive: true, force: true });
}
