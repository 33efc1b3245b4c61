// One gateway call's trace, end to end over OTLP: the client's span, the gateway's server span, the
// manager's client span and the upstream's server span (an SDK server instrumented the same way)
// share one trace id, each the parent of the next; the attributes follow the MCP conventions and
// carry no argument values.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { createOtelTracer } from '../../src/util/telemetry/otel-tracer.js';
import { createTelemetry, mcpSpan, tracingFetch, type Telemetry } from '../../src/util/telemetry/index.js';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { BIN, runCliProcess } from '../support/cli.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { post2026 } from '../support/raw-2026.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TOKEN = 'otlp-trace-test-token-abcdefgh';
const TRACED_UPSTREAM = fixtureProgram('traced-upstream.mjs');
const SECRET_ARGUMENT = 'do-not-export-this-value';

describe('tracing a gateway call over OTLP', () => {
  let receiver: OtlpReceiver;
  let home: string;
  let serve: ServeProcess;
  let telemetry: Telemetry;
  let work: string;
  let otel: Record<string, string>;

  beforeAll(async () => {
    requireBuild();
    receiver = await startOtlpReceiver();
    home = await tempDir('sb-otlp-');
    work = path.join(home, 'work');
    await mkdir(work);
    otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' };
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.up]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TRACED_UPSTREAM)}]\nenv = { ${Object.entries(otel)
        .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
        .join(', ')} }\n`,
    );
    serve = await spawnServe(['--http', '127.0.0.1:0'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_MCP_TOKEN: TOKEN, ...otel }, cwd: work });
    telemetry = createTelemetry({
      tracer: createOtelTracer({ env: { OTEL_BSP_SCHEDULE_DELAY: '50' }, serviceName: 'test-client', serviceVersion: '0', exporter: new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }) }),
    });
  });

  afterAll(async () => {
    await telemetry?.shutdown();
    await serve?.stop();
    await receiver?.close();
    if (home) await removeTree(home);
  });

  it('links client, gateway, manager and upstream spans into one trace', async () => {
    const client = new Client({ name: 'otlp-test', version: '0' });
    const fetch = tracingFetch<typeof globalThis.fetch>(undefined, telemetry);
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } }, ...(fetch ? { fetch } : {}) }));
    try {
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'mcp__up__echo'), 'the upstream tool in the catalog');
      const result = await telemetry.span(mcpSpan({ kind: 'client', method: 'tools/call', params: { name: 'mcp__up__echo' } }), () =>
        client.callTool({ name: 'mcp__up__echo', arguments: { text: SECRET_ARGUMENT }, _meta: { ...telemetry.traceContext() } }),
      );
      expect(JSON.stringify(result)).toContain(SECRET_ARGUMENT);
    } finally {
      await client.close();
    }
    await telemetry.shutdown();

    const named = (service: string, kind: number, name: string) => receiver.spans.find((s) => s.service === service && s.kind === kind && s.name === name);
    const found = await waitFor(() => {
      const clientSpan = named('test-client', 3, 'tools/call mcp__up__echo');
      const gateway = named('switchboard', 2, 'tools/call mcp__up__echo');
      const manager = named('switchboard', 3, 'tools/call echo');
      const upstream = named('traced-upstream', 2, 'tools/call echo');
      return clientSpan && gateway && manager && upstream && { clientSpan, gateway, manager, upstream };
    }, `the four spans of the call; received: ${receiver.spans.map((s) => `${s.service}/${s.kind}/${s.name}`).join(', ')}`);

    const { clientSpan, gateway, manager, upstream } = found;
    expect(new Set([clientSpan, gateway, manager, upstream].map((s: ReceivedSpan) => s.traceId)).size).toBe(1);
    expect(gateway.parentSpanId).toBe(clientSpan.spanId);
    expect(manager.parentSpanId).toBe(gateway.spanId);
    expect(upstream.parentSpanId).toBe(manager.spanId);

    expect(gateway.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'mcp__up__echo', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'tcp', 'mcp.protocol.version': '2025-11-25' });
    expect(gateway.attributes['mcp.session.id']).toEqual(expect.any(String));
    expect(manager.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'switchboard.mcp.server': 'up', 'network.transport': 'pipe' });
    expect(upstream.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo' });
    // Names, methods and outcomes only: the argument travels in no span.
    expect(JSON.stringify(receiver.spans)).not.toContain(SECRET_ARGUMENT);
  });

  it('observes a 2026-07-28 request like a session\'s: a tools/call answered with a JSON-RPC error (on HTTP 200) is an error span and an error in /metrics', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const call = (id: number, name: string, headers: Record<string, string>, meta: Record<string, string> = {}) =>
      post2026(serve.url, { id, method: 'tools/call', name, params: { name, arguments: { text: SECRET_ARGUMENT } }, token: TOKEN, headers, meta });
    // The trace context from the HTTP header, then from `_meta` (which outranks the header).
    const failed = await call(1, 'mcp__up__missing', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(failed.response.status).toBe(200);
    expect(failed.answer.error?.code).toBe(-32602);
    const ok = await call(2, 'mcp__up__echo', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }, { traceparent: `00-${traceId}-b7ad6b7169203331-01` });
    expect(JSON.stringify(ok.answer.result)).toContain(SECRET_ARGUMENT);

    const served = (name: string) => receiver.spans.find((s) => s.service === 'switchboard' && s.kind === 2 && s.name === `tools/call ${name}` && s.attributes['mcp.protocol.version'] === '2026-07-28');
    const found = await waitFor(() => {
      const missing = served('mcp__up__missing');
      const echo = served('mcp__up__echo');
      return missing && echo && { missing, echo };
    }, `the 2026 calls' server spans; received: ${receiver.spans.map((s) => `${s.service}/${s.kind}/${s.name}`).join(', ')}`);
    expect(found.missing).toMatchObject({ traceId, parentSpanId: '00f067aa0ba902b7' });
    expect(found.missing.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'mcp__up__missing', 'network.transport': 'tcp', 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(found.echo).toMatchObject({ traceId, parentSpanId: 'b7ad6b7169203331' });
    expect(found.echo.attributes['error.type']).toBeUndefined();
    // The per-request server's span is the parent of the manager's call to the upstream.
    await waitFor(() => receiver.spans.find((s) => s.service === 'switchboard' && s.kind === 3 && s.name === 'tools/call echo' && s.parentSpanId === found.echo.spanId), 'the manager span under the 2026 request');

    const metrics = await (await fetch(new URL('/metrics', serve.url), { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const lines = metrics.split('\n');
    expect(lines).toContain('mcp_server_operation_duration_seconds_count{method="tools/call",outcome="error"} 1');
    expect(JSON.stringify(receiver.spans)).not.toContain(SECRET_ARGUMENT);
  });

  it.each([
    ['2025', {}],
    ['2026-07-28', { versionNegotiation: { mode: 'auto' as const } }],
  ])('links the gateway, manager and upstream spans of a %s client on stdio', async (_era, negotiation) => {
    const before = receiver.spans.length;
    const client = new Client({ name: 'otlp-stdio', version: '0' }, negotiation);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve'], env: { PATH: process.env.PATH!, HOME: home, SWITCHBOARD_HOME: home, ...otel }, cwd: work, stderr: 'pipe' }));
    try {
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'mcp__up__echo'), 'the upstream tool in the catalog');
      await client.callTool({ name: 'mcp__up__echo', arguments: { text: 'over stdio' } });
    } finally {
      await client.close();
    }
    const chain = await waitFor(() => {
      const fresh = receiver.spans.slice(before);
      const gateway = fresh.find((s) => s.service === 'switchboard' && s.kind === 2 && s.name === 'tools/call mcp__up__echo' && s.attributes['network.transport'] === 'pipe');
      const manager = gateway && fresh.find((s) => s.service === 'switchboard' && s.kind === 3 && s.name === 'tools/call echo' && s.parentSpanId === gateway.spanId);
      const upstream = manager && fresh.find((s) => s.service === 'traced-upstream' && s.kind === 2 && s.parentSpanId === manager.spanId);
      return upstream && { gateway, manager, upstream };
    }, `the stdio call's spans; received: ${receiver.spans.map((s) => `${s.service}/${s.kind}/${s.name}`).join(', ')}`);
    expect(new Set([chain.gateway, chain.manager, chain.upstream].map((s) => s.traceId)).size).toBe(1);
  }, 60_000);

  it('traces `switchboard mcp call` too: its client span is the parent of the upstream span', async () => {
    const before = receiver.spans.length;
    const r = await runCliProcess(['mcp', 'call', 'mcp__up__echo', '--args', JSON.stringify({ text: 'from the cli' })], { home, cwd: work, env: { HOME: home, ...otel } });
    expect(r.code, r.stderr).toBe(0);
    const pair = await waitFor(() => {
      const fresh = receiver.spans.slice(before);
      const client = fresh.find((s) => s.service === 'switchboard' && s.kind === 3 && s.name === 'tools/call echo');
      const upstream = fresh.find((s) => s.service === 'traced-upstream' && s.kind === 2 && s.name === 'tools/call echo' && s.parentSpanId === client?.spanId);
      return client && upstream && { client, upstream };
    }, `the CLI call's spans; received: ${receiver.spans.map((s) => `${s.service}/${s.kind}/${s.name}`).join(', ')}`);
    expect(pair.upstream.traceId).toBe(pair.client.traceId);
  });
});
