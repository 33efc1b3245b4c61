import * as prom from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { EndedSpan, SpanSpec } from '../../util/telemetry/index.js';
import { Tally } from './metric-tally.js';
import { createMetrics } from './metrics.js';

const readings = { upstreams: () => [], clients: () => [], inFlight: () => 0 };

function span(kind: SpanSpec['kind'], attributes: EndedSpan['attributes'], durationMs: number, errorType?: string): EndedSpan {
  return { spec: { name: 'x', kind, attributes }, attributes, durationMs, errorType, endedAt: Date.now() };
}

describe('metrics', () => {
  it('counts what ended before the first scrape, which is when prom-client is loaded', async () => {
    const m = createMetrics(readings);
    for (const ms of [0.4, 3, 70, 70_000]) m.ended(span('server', { 'mcp.method.name': 'tools/call' }, ms));
    m.ended(span('client', { 'mcp.method.name': 'tools/call', 'switchboard.mcp.server': 'a', 'gen_ai.tool.name': 'echo' }, 2, 'tool_error'));
    m.started?.({ name: 'invoke_agent switchboard', kind: 'internal', attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
    m.ended(span('client', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm', 'gen_ai.usage.input_tokens': 20, 'gen_ai.usage.output_tokens': 10 }, 300));

    const text = await m.scrape();
    expect(m.contentType).toBe(prom.Registry.PROMETHEUS_CONTENT_TYPE);
    const lines = text.split('\n');
    expect(lines).toContain('mcp_server_operation_duration_seconds_count{method="tools/call",outcome="ok"} 4');
    expect(lines).toContain('mcp_server_operation_duration_seconds_bucket{le="0.005",method="tools/call",outcome="ok"} 2');
    expect(lines).toContain('mcp_server_operation_duration_seconds_bucket{le="60",method="tools/call",outcome="ok"} 3');
    expect(lines).toContain('mcp_server_operation_duration_seconds_bucket{le="+Inf",method="tools/call",outcome="ok"} 4');
    expect(lines).toContain('switchboard_upstream_calls_total{server="a",tool="echo",outcome="error"} 1');
    expect(lines).toContain('switchboard_agent_turns_running 1');
    expect(lines).toContain('switchboard_model_tokens_total{model="m",type="input"} 20');
    expect(lines.filter((l) => l.startsWith('switchboard_agent_turns_total{'))).toEqual([]); // the turn is still running
    // The process metrics come from prom-client, and its CPU counter includes the time before it loaded.
    const cpu = Number(/^switchboard_process_cpu_seconds_total (\S+)$/m.exec(text)?.[1]);
    const usage = process.cpuUsage();
    expect(cpu).toBeGreaterThan(0.5 * ((usage.user + usage.system) / 1e6));
    expect(lines.some((l) => l.startsWith('switchboard_nodejs_heap_size_used_bytes '))).toBe(true);
  });

  it('counts an upstream stop_after_idle_sec stopped as up, its state idle; a lazy one not yet started as down', async () => {
    const row = { protocol: null, tools: 1, restarts: 0, required: true };
    const m = createMetrics({ ...readings, upstreams: () => [{ name: 'a', state: 'idle', stopped_idle_at: Date.now(), ...row }, { name: 'b', state: 'idle', ...row }] });
    const lines = (await m.scrape()).split('\n');
    expect(lines).toEqual(expect.arrayContaining(['switchboard_upstream_up{server="a"} 1', 'switchboard_upstream_up{server="b"} 0', 'switchboard_upstream_state{server="a",state="idle"} 1']));
  });

  it('writes a family as prom-client does, escapes and all', async () => {
    const bounds = [0.001, 0.01, 1];
    const registry = new prom.Registry();
    const theirs = new prom.Histogram({ name: 'h_seconds', help: 'a "help"\\ with\nlines', labelNames: ['a', 'b'], buckets: bounds, registers: [registry] });
    const counted = new prom.Counter({ name: 'c_total', help: 'c', labelNames: ['a'], registers: [registry] });
    const bare = new prom.Gauge({ name: 'g', help: 'g', registers: [registry] });
    const ours = new Tally('histogram', 'h_seconds', 'a "help"\\ with\nlines', ['a', 'b'], bounds);
    const ourCount = new Tally('counter', 'c_total', 'c', ['a']);
    const ourBare = new Tally('gauge', 'g', 'g');
    for (const [labels, v] of [[{ a: 'x', b: 'q"uo\\te\n' }, 0.0005], [{ a: 'x', b: 'q"uo\\te\n' }, 0.5], [{ a: 'y', b: '' }, 2], [{ a: 'x', b: 'q"uo\\te\n' }, 0.01]] as const) {
      theirs.observe(labels, v);
      ours.observe(labels, v);
      counted.inc({ a: labels.a }, v);
      ourCount.inc({ a: labels.a }, v);
    }
    bare.inc(2);
    ourBare.inc({}, 2);
    expect(`${[ours, ourCount, ourBare].map((t) => t.render()).join('\n\n')}\n`).toBe(await registry.metrics());
  });

  it('ignores values prom-client would throw on, without losing the series', () => {
    const t = new Tally('counter', 'c_total', 'c', ['a']);
    t.inc({ a: 'x' }, 2);
    t.inc({ a: 'x' }, Number.NaN);
    t.inc({ a: 'x' }, -1);
    const h = new Tally('histogram', 'h', 'h', [], [1]);
    h.observe({}, Number.POSITIVE_INFINITY);
    expect(t.render().split('\n')).toContain('c_total{a="x"} 2');
    expect(h.render().split('\n')).toContain('h_count 0');
  });
});
