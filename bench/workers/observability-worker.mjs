// Measures what observability costs, in one fresh process, and prints the figures as JSON.
// bench/observability.bench.ts drives it.
// Usage: node observability-worker.mjs <mode> '<json args>'
//   every mode that times calls takes {warmup} too: calls per side before the timed ones (the bench's
//                           WARMUP, 1,000)
//   off      {n, todayBin}  tools/call p50 through `serve` on stdio: this build (tracing off) against
//                           today's build (todayBin), alternating blocks, each with its own tiny upstream
//   tracing  {n, same?, sampler?, variant?}
//                           tools/call p50 through an in-process gateway session (server span on the
//                           session's transport, client span on the upstream call): tracing off against
//                           tracing on and exporting over OTLP/HTTP to a loopback receiver. To find
//                           where the cost is: `same` (both off: the noise floor), `sampler`
//                           (OTEL_TRACES_SAMPLER, e.g. always_off: no recording, no export), `variant`
//                           listeners (spans to a listener, no tracer), nometa (no trace context on the
//                           wire), noserver / noclient (only the client / only the server span)
//   scrape   {servers, tools, n}  GET /metrics after every tool of servers × tools was called once
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, connectClient, NODE, percentile, TINY } from './worker-support.mjs';

const [mode, argJson] = process.argv.slice(2);
const args = JSON.parse(argJson ?? '{}');

const client = (transport) => connectClient('bench-observability', transport);

/** p50/p99 of `n` calls on each side, in alternating blocks of 100 after a warm-up. */
async function alternate(sides, n) {
  const call = (s) => s.client.callTool({ name: s.tool, arguments: { text: 'x' } });
  if (!Number.isInteger(args.warmup)) throw new Error('warmup (calls per side before the timed ones) is required');
  for (let i = 0; i < args.warmup; i++) for (const s of sides) await call(s);
  const times = sides.map(() => []);
  for (let block = 0; block < n / 100; block++) {
    for (const [k, s] of sides.entries()) {
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now();
        await call(s);
        times[k].push(performance.now() - t0);
      }
    }
  }
  return times.map((t) => ({ p50: percentile(t, 50), p99: percentile(t, 99) }));
}

/** A loopback OTLP/HTTP receiver that accepts and drops what it gets (counting spans posted). */
async function otlpSink() {
  let posts = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, posts: () => posts, close: () => new Promise((r) => server.close(r)) };
}

const home = await mkdtemp(path.join(os.tmpdir(), 'sb-bench-obs-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_HOME: home };
const cleanup = [];
try {
  let result;
  if (mode === 'off') {
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.tiny]\ncommand = ${JSON.stringify(NODE)}\nargs = [${JSON.stringify(TINY)}]\n`);
    const ours = await client(new StdioClientTransport({ command: NODE, args: [BIN, 'serve'], env, cwd: home, stderr: 'inherit' }));
    cleanup.push(() => ours.close());
    const today = await client(new StdioClientTransport({ command: NODE, args: [args.todayBin, 'serve'], env, cwd: home, stderr: 'inherit' }));
    cleanup.push(() => today.close());
    const [a, b] = await alternate([{ client: ours, tool: 'mcp__tiny__tool_1' }, { client: today, tool: 'mcp__tiny__tool_1' }], args.n);
    result = { ours: a, today: b };
  } else if (mode === 'tracing') {
    const { parseMcpServerConfig } = await import('../../dist/config/index.js');
    const { createDefaultClientFactory, McpConnectionManager } = await import('../../dist/mcp/index.js');
    const { GatewayPool, gatewayProduct } = await import('../../dist/gateway/index.js');
    const { startServing } = await import('../../dist/mcp-host/index.js');
    const { nullLogger } = await import('../../dist/util/index.js');
    const { createTelemetry, loadTracer, NOOP_TELEMETRY } = await import('../../dist/util/telemetry/index.js');
    const sink = await otlpSink();
    cleanup.push(() => sink.close());
    const tiny = parseMcpServerConfig('tiny', { command: NODE, args: [TINY] }).config;
    const gateway = async (telemetry) => {
      const pool = new GatewayPool(
        { name: 'bench-gateway', title: 'bench', version: '0', mode: { kind: 'aggregate' } },
        {
          logger: nullLogger,
          createManager: (setup) =>
            new McpConnectionManager(
              { servers: { tiny } },
              { createClient: createDefaultClientFactory({ logger: nullLogger, environments: {}, env, clientOptions: setup.clientOptions, telemetry: args.variant === 'noclient' ? NOOP_TELEMETRY : telemetry }), logger: nullLogger, handlersFor: setup.handlersFor, onEvent: setup.onEvent },
            ),
        },
      );
      cleanup.push(() => pool.close());
      // Served as `serve` serves stdio: the host observes each request (a server span) unless 'noserver'.
      const serving = startServing(gatewayProduct(pool), { logger: nullLogger, ...(args.variant === 'noserver' ? {} : { telemetry }) });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const connection = serving.connect(serverSide);
      cleanup.push(() => serving.close());
      cleanup.push(() => connection.close());
      const c = await client(clientSide);
      cleanup.push(() => c.close());
      return c;
    };
    const tracer = await loadTracer({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${sink.url}/v1/traces`, ...(args.sampler ? { OTEL_TRACES_SAMPLER: args.sampler } : {}) }, { name: 'bench', version: '0' });
    // `listeners`: spans feeding a listener only (no tracer, no trace context on the wire).
    const traced = args.variant === 'listeners' ? createTelemetry({ listeners: [{ ended() {} }] }) : createTelemetry({ tracer });
    if (args.variant === 'nometa') traced.traceContext = () => undefined;
    cleanup.push(() => traced.shutdown());
    const off = await gateway(NOOP_TELEMETRY);
    const on = await gateway(args.same ? NOOP_TELEMETRY : traced);
    const [a, b] = await alternate([{ client: off, tool: 'mcp__tiny__tool_1' }, { client: on, tool: 'mcp__tiny__tool_1' }], args.n);
    // CPU per call of this process on each side (what the gateway spends, export included): less
    // sensitive than latency to a machine shared with other jobs.
    const cpu = async (c) => {
      const start = process.cpuUsage();
      for (let i = 0; i < args.n; i++) await c.callTool({ name: 'mcp__tiny__tool_1', arguments: { text: 'x' } });
      await traced.flush?.();
      const used = process.cpuUsage(start);
      return (used.user + used.system) / args.n;
    };
    const cpuOff = await cpu(off);
    const cpuOn = await cpu(on);
    await traced.shutdown();
    result = { off: a, on: b, exports: sink.posts(), cpuUsPerCall: { off: cpuOff, on: cpuOn } };
  } else if (mode === 'scrape') {
    const { createOps, startOpsListener } = await import('../../dist/mcp-host/ops/index.js');
    const { nullLogger } = await import('../../dist/util/index.js');
    const { mcpSpan } = await import('../../dist/util/telemetry/index.js');
    const ops = await createOps({ title: 'bench', version: '0', tracer: null });
    cleanup.push(() => ops.close());
    const servers = Array.from({ length: args.servers }, (_, i) => `server${i}`);
    ops.setSource({
      upstreams: () => servers.map((name) => ({ name, state: 'ready', protocol: '2025-11-25', tools: args.tools, startup_ms: 120, restarts: 0, required: false })),
      ready: async () => true,
      onChange: () => {},
    });
    // Every tool called once: a series per tool in each call family.
    for (const server of servers) {
      for (let t = 0; t < args.tools; t++) {
        const tool = `tool_${t}`;
        await ops.telemetry.span(mcpSpan({ kind: 'server', method: 'tools/call', params: { name: `mcp__${server}__${tool}` } }), () =>
          ops.telemetry.span(mcpSpan({ kind: 'client', method: 'tools/call', params: { name: tool }, upstream: server }), async () => ({})),
        );
      }
    }
    const listener = await startOpsListener(ops, { host: '127.0.0.1', port: 0 }, nullLogger);
    cleanup.push(() => listener.close());
    const times = [];
    let bytes = 0;
    for (let i = 0; i < 5 + args.n; i++) {
      const t0 = performance.now();
      const body = await (await fetch(listener.url)).text();
      if (i >= 5) times.push(performance.now() - t0);
      bytes = body.length;
    }
    result = { p50: percentile(times, 50), p99: percentile(times, 99), bytes };
  } else throw new Error(`unknown mode ${mode}`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
  await rm(home, { recursive: true, force: true });
}
