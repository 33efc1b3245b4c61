import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { traceExportConfigured } from './load-tracer.js';
import { mcpSpan } from './semconv.js';
import { createTelemetry, errorTypeOf, NOOP_TELEMETRY, type EndedSpan, type OpenSpan, type Tracer } from './telemetry.js';
import { metaWithTrace, tracingFetch } from './trace-fetch.js';

describe('traceExportConfigured', () => {
  it('is off by default and follows the standard OTEL_* variables', () => {
    expect(traceExportConfigured({})).toBe(false);
    expect(traceExportConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(traceExportConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(traceExportConfigured({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(traceExportConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(false);
    expect(traceExportConfigured({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(false);
  });
});

describe('the no-op telemetry', () => {
  it('is what createTelemetry gives without a tracer or listeners, and passes values and errors through', async () => {
    expect(createTelemetry()).toBe(NOOP_TELEMETRY);
    expect(await NOOP_TELEMETRY.span(mcpSpan({ kind: 'client', method: 'ping' }), async () => 7)).toBe(7);
    await expect(NOOP_TELEMETRY.span(mcpSpan({ kind: 'client', method: 'ping' }), async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    const base = async () => new Response('ok');
    expect(tracingFetch(base, NOOP_TELEMETRY)).toBe(base);
    const meta = { progressToken: 1 };
    expect(metaWithTrace(meta, undefined)).toBe(meta);
    return NOOP_TELEMETRY.span(mcpSpan({ kind: 'client', method: 'ping' }), async (s) => expect(s.traceContext()).toBeUndefined());
  });
});

const TP = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** A tracer whose spans carry a fixed trace context, current while they are (async context, as OpenTelemetry's). */
function fakeTracer(): Tracer {
  const current = new AsyncLocalStorage<boolean>();
  return {
    start(): OpenSpan {
      return { set() {}, fail() {}, traceContext: () => ({ traceparent: TP }), within: <T>(fn: () => T): T => current.run(true, fn), end() {} };
    },
    traceContext: () => (current.getStore() ? { traceparent: TP } : undefined),
    shutdown: async () => {},
  };
}

describe('createTelemetry', () => {
  it('tells listeners how each span went, with the attributes set while it ran', async () => {
    const ended: EndedSpan[] = [];
    const telemetry = createTelemetry({ listeners: [{ ended: (s) => ended.push(s) }] });
    await telemetry.span(mcpSpan({ kind: 'server', method: 'tools/call', params: { name: 'echo', arguments: { secret: 1 } } }), async (span) => span.set('extra', 1));
    await telemetry.span(mcpSpan({ kind: 'client', method: 'tools/call', params: { name: 'boom' } }), async () => Promise.reject(Object.assign(new Error('no'), { code: 'timeout' }))).catch(() => {});
    expect(ended.map((e) => [e.spec.name, e.errorType, e.attributes.extra])).toEqual([
      ['tools/call echo', undefined, 1],
      ['tools/call boom', 'timeout', undefined],
    ]);
    expect(JSON.stringify(ended)).not.toContain('secret');
  });

  it('ends a span whose work throws before it returns a promise, failed by that error', async () => {
    const ended: EndedSpan[] = [];
    const telemetry = createTelemetry({ listeners: [{ ended: (s) => ended.push(s) }] });
    const boom = (): Promise<never> => {
      throw new TypeError('sync');
    };
    await expect(telemetry.span(mcpSpan({ kind: 'client', method: 'ping' }), boom)).rejects.toThrow('sync');
    expect(ended.map((e) => [e.spec.name, e.errorType])).toEqual([['ping', 'TypeError']]);
  });

  it('gives _meta the trace context alone when the request had none', async () => {
    const telemetry = createTelemetry({ tracer: fakeTracer() });
    const meta = await telemetry.span(mcpSpan({ kind: 'client', method: 'tools/call' }), async (s) => metaWithTrace(undefined, s.traceContext()));
    expect(meta).toEqual({ traceparent: TP });
  });

  it('puts the span\'s trace context into _meta, and the current one into headers, while tracing', async () => {
    const telemetry = createTelemetry({ tracer: fakeTracer() });
    let seen: Headers | undefined;
    const fetch = tracingFetch(async (_input: string, init?: RequestInit) => {
      seen = new Headers(init?.headers);
      return new Response('');
    }, telemetry)!;
    const meta = await telemetry.span(mcpSpan({ kind: 'client', method: 'tools/call' }), async (s) => {
      await fetch('http://x', { headers: { a: 'b' } });
      return metaWithTrace({ traceparent: 'stale', tracestate: 'stale', other: 1 }, s.traceContext());
    });
    expect(meta).toEqual({ traceparent: TP, other: 1 });
    expect(seen?.get('traceparent')).toBe(TP);
    expect(seen?.get('a')).toBe('b');
  });

  it('leaves the current span as it was for a span started with current: false', async () => {
    const telemetry = createTelemetry({ tracer: fakeTracer() });
    const inside = await telemetry.span(mcpSpan({ kind: 'client', method: 'tools/call' }), async (s) => [telemetry.traceContext(), s.traceContext()], { current: false });
    expect(inside).toEqual([undefined, { traceparent: TP }]);
  });

  it('names error types by code, then class', () => {
    expect(errorTypeOf(Object.assign(new Error('x'), { code: 'unknown_tool' }))).toBe('unknown_tool');
    expect(errorTypeOf(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeOf('x')).toBe('_OTHER');
  });
});
