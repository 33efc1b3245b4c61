// Spans exported from the worker thread reach an OTLP receiver as the SDK's own exporter on the main
// thread sends them: the same OTLP JSON for the same spans (ids, parents, times, status, attributes,
// resource, scope).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { requireBuild } from '../support/mcp-server-harness.js';

/** Keeps what it was given past shutdown (the SDK's own forgets it then). */
class KeptSpans extends InMemorySpanExporter {
  override shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('span export on a worker thread', () => {
  let server: http.Server;
  let url: string;
  const bodies: unknown[] = [];

  beforeAll(async () => {
    requireBuild();
    server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends what the SDK exporter sends', async () => {
    // The build's modules: the worker's module exists only there.
    const { createOtelTracer } = await import('../../dist/util/telemetry/otel-tracer.js');
    const { createTelemetry } = await import('../../dist/util/telemetry/index.js');
    const { exportThreadAvailable, ThreadSpanExporter } = await import('../../dist/util/telemetry/otel-export-thread.js');
    expect(exportThreadAvailable()).toBe(true);

    const kept = new KeptSpans();
    const telemetry = createTelemetry({ tracer: createOtelTracer({ env: {}, serviceName: 'thread-test', serviceVersion: '1.2.3', exporter: kept }) });
    const served = telemetry.start({ name: 'tools/call x', kind: 'server', attributes: { 'mcp.method.name': 'tools/call', 'jsonrpc.request.id': '7', skipped: undefined }, parent: { traceparent: PARENT, tracestate: 'vendor=a' } });
    await served.within(() =>
      telemetry.span({ name: 'tools/call y', kind: 'client', attributes: { 'mcp.method.name': 'tools/call', count: 3, ratio: 0.5, flag: true } }, async (s) => {
        s.fail('tool_error');
      }),
    );
    served.set('rpc.response.status_code', '0');
    served.end();
    await telemetry.shutdown();
    const spans: ReadableSpan[] = kept.getFinishedSpans();
    expect(spans).toHaveLength(2);

    const resource = spans[0]!.resource;
    const scope = spans[0]!.instrumentationScope;
    const direct = new OTLPTraceExporter({ url });
    const threaded = new ThreadSpanExporter({ url, resource: resource.attributes, scope });
    for (const exporter of [direct, threaded]) {
      const result = await new Promise<{ code: number }>((resolve) => exporter.export(spans, resolve));
      expect(result.code).toBe(0);
      await exporter.shutdown();
    }

    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    const sent = JSON.stringify(bodies[0]);
    for (const expected of ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'vendor=a', 'thread-test', '1.2.3', 'tool_error', 'rpc.response.status_code']) expect(sent).toContain(expected);
    expect(sent).not.toContain('skipped');
  });
});
