import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { createOtelTracer } from './otel-tracer.js';
import { createTelemetry } from './telemetry.js';

/** Keeps what it was given past shutdown (the SDK's own forgets it then). */
class KeptSpans extends InMemorySpanExporter {
  override shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function traced(env: NodeJS.ProcessEnv = {}) {
  const exporter = new KeptSpans();
  const tracer = createOtelTracer({ env, serviceName: 'test', serviceVersion: '0', exporter });
  return { exporter, telemetry: createTelemetry({ tracer }) };
}

/** A server span from `parent` with a client span inside it; the trace context the client span sends. */
async function serveAndCall(telemetry: ReturnType<typeof createTelemetry>, parent: string) {
  const server = telemetry.start({ name: 'tools/call x', kind: 'server', attributes: { 'mcp.method.name': 'tools/call' }, parent: { traceparent: parent } });
  const sent = await server.within(() =>
    telemetry.span({ name: 'tools/call y', kind: 'client', attributes: { 'mcp.method.name': 'tools/call', skipped: undefined } }, async (s) => {
      s.fail('tool_error');
      return telemetry.traceContext();
    }),
  );
  server.end();
  return sent;
}

describe('the OpenTelemetry tracer', () => {
  it('exports the spans with the ids the outgoing requests carried, parented on the caller', async () => {
    const { exporter, telemetry } = traced();
    const sent = await serveAndCall(telemetry, PARENT);
    await telemetry.shutdown();
    const spans = exporter.getFinishedSpans();
    const client = spans.find((s) => s.name === 'tools/call y')!;
    const server = spans.find((s) => s.name === 'tools/call x')!;
    expect(sent?.traceparent).toBe(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
    expect(server.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(server.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(client.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(client.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'error.type': 'tool_error' });
    expect(client.status.code).toBe(2);
    expect(client.endTime[0] * 1e9 + client.endTime[1]).toBeGreaterThanOrEqual(client.startTime[0] * 1e9 + client.startTime[1]);
  });

  it('passes the caller\'s tracestate on to the requests it makes', async () => {
    const { telemetry } = traced();
    const server = telemetry.start({ name: 'tools/call x', kind: 'server', attributes: {}, parent: { traceparent: PARENT, tracestate: 'vendor=a,other=b' } });
    const sent = await server.within(() => telemetry.span({ name: 'tools/call y', kind: 'client', attributes: {} }, async () => telemetry.traceContext()));
    server.end();
    await telemetry.shutdown();
    expect(sent).toEqual({ traceparent: expect.stringMatching(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/), tracestate: 'vendor=a,other=b' });
  });

  it('records nothing for spans not sampled and still passes the trace on, marked not sampled', async () => {
    for (const [env, parent] of [
      [{ OTEL_TRACES_SAMPLER: 'always_off' }, PARENT],
      [{}, PARENT.replace(/-01$/, '-00')],
    ] as const) {
      const { exporter, telemetry } = traced(env);
      const sent = await serveAndCall(telemetry, parent);
      await telemetry.shutdown();
      expect(exporter.getFinishedSpans()).toEqual([]);
      expect(sent?.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-(?!b7ad6b7169203331)[0-9a-f]{16}-00$/);
    }
  });

  it('parents a span started from an open span\'s handed-out context on that span, and reads it as remote once it ended', async () => {
    const { exporter, telemetry } = traced();
    const server = telemetry.start({ name: 'tools/call x', kind: 'server', attributes: {}, parent: { traceparent: PARENT } });
    const handed = server.traceContext()!;
    // Not the current span: the context is passed explicitly, as the gateway's relays pass it.
    await telemetry.span({ name: 'tools/call y', kind: 'client', attributes: {}, parent: handed }, async () => undefined, { current: false });
    server.end();
    await telemetry.span({ name: 'tools/call z', kind: 'client', attributes: {}, parent: handed }, async () => undefined);
    await telemetry.shutdown();
    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.find((s) => s.name === name)!;
    expect(named('tools/call y').parentSpanContext).toBe(named('tools/call x').spanContext());
    expect(named('tools/call z').parentSpanContext).toMatchObject({ spanId: named('tools/call x').spanContext().spanId, isRemote: true });
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set(['0af7651916cd43dd8448eb211c80319c']));
  });
});
