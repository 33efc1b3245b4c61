// The worker thread that exports spans over OTLP/HTTP: the SDK's exporter, given the spans of a batch
// as plain records (otel-export-thread.ts). Turning spans into OTLP JSON and sending it costs more
// than everything else tracing does per call: here it does not hold up the event loop serving calls.
import { parentPort, workerData } from 'node:worker_threads';
import type { Attributes, HrTime, SpanKind } from '@opentelemetry/api';
import { hrTimeDuration, TraceState } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { ExportSetup, FlatSpans, ToThread } from './otel-export-thread.js';

const setup = workerData as ExportSetup;
const exporter = new OTLPTraceExporter(setup.url ? { url: setup.url } : {});
const resource = resourceFromAttributes(setup.resource);

/** The spans `flatten` (otel-export-thread.ts) wrote, as the exporter reads them. */
function unflatten(flat: FlatSpans): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  let i = 0;
  const next = () => flat[i++];
  while (i < flat.length) {
    const name = next() as string;
    const kind = next() as SpanKind;
    const traceId = next() as string;
    const spanId = next() as string;
    const traceFlags = next() as number;
    const traceState = next() as string | undefined;
    const parentSpanId = next() as string | undefined;
    const isRemote = next() as boolean | undefined;
    const startTime: HrTime = [next() as number, next() as number];
    const endTime: HrTime = [next() as number, next() as number];
    const code = next() as number;
    const message = next() as string | undefined;
    const attributes: Attributes = {};
    for (let n = next() as number; n > 0; n--) attributes[next() as string] = next() as string | number | boolean;
    const context = { traceId, spanId, traceFlags, ...(traceState ? { traceState: new TraceState(traceState) } : {}) };
    spans.push({
      name,
      kind,
      spanContext: () => context,
      ...(parentSpanId ? { parentSpanContext: { traceId, spanId: parentSpanId, traceFlags, ...(isRemote === undefined ? {} : { isRemote }) } } : {}),
      startTime,
      endTime,
      duration: hrTimeDuration(startTime, endTime),
      status: message === undefined ? { code } : { code, message },
      attributes,
      links: [],
      events: [],
      ended: true,
      resource,
      instrumentationScope: setup.scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
  }
  return spans;
}

parentPort?.on('message', (message: ToThread) => {
  if (message.kind === 'export') {
    exporter.export(unflatten(message.spans), (result) => parentPort?.postMessage({ id: message.id, code: result.code, ...(result.error ? { error: result.error.message } : {}) }));
  } else {
    void exporter.shutdown().finally(() => parentPort?.postMessage({ id: message.id, code: 0 }));
  }
});
