// The OpenTelemetry tracer behind Telemetry: the official SDK's samplers, batch span processor and
// OTLP/HTTP exporter, configured by the standard OTEL_* variables. Loaded by dynamic import only when
// export is configured, and it sets no OpenTelemetry globals. Its spans are its own (otel-spans.ts)
// and the current one lives in its own AsyncLocalStorage: the SDK's tracer and context manager cost
// more per span than a gateway call's whole budget for tracing (docs/performance.md).
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanKind, defaultTextMapGetter, trace, type Attributes, type SpanContext } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';
import { decideFromEnv } from './otel-sampling.js';
import { OtelSpan, PooledIds, type SpanSetting } from './otel-spans.js';
import type { SpanSpec, Tracer } from './telemetry.js';

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL } as const;

/**
 * OTLP/HTTP to the endpoint `env` names (the exporter itself reads only process.env: the URL is
 * given so a caller's own environment counts); headers, timeouts and the rest it reads itself.
 */
function exporterFor(env: NodeJS.ProcessEnv): OTLPTraceExporter {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = traces || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  return new OTLPTraceExporter(url ? { url } : {});
}

/** OTEL_BSP_* (the batch processor leaves reading them to its distributions). */
function batchOptionsFromEnv(env: NodeJS.ProcessEnv): { scheduledDelayMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number; exportTimeoutMillis?: number } {
  const num = (name: string): number | undefined => {
    const v = Number(env[name]);
    return env[name] !== undefined && Number.isFinite(v) && v >= 0 ? v : undefined;
  };
  const out: ReturnType<typeof batchOptionsFromEnv> = {};
  const delay = num('OTEL_BSP_SCHEDULE_DELAY');
  const queue = num('OTEL_BSP_MAX_QUEUE_SIZE');
  const batch = num('OTEL_BSP_MAX_EXPORT_BATCH_SIZE');
  const timeout = num('OTEL_BSP_EXPORT_TIMEOUT');
  if (delay !== undefined) out.scheduledDelayMillis = delay;
  if (queue !== undefined) out.maxQueueSize = queue;
  if (batch !== undefined) out.maxExportBatchSize = batch;
  if (timeout !== undefined) out.exportTimeoutMillis = timeout;
  return out;
}

export interface OtelTracerOptions {
  env: NodeJS.ProcessEnv;
  serviceName: string;
  serviceVersion: string;
  /** Tests: another exporter than OTLP/HTTP. */
  exporter?: SpanExporter;
}

const NOT_RECORDED: SpanSpec['attributes'] = Object.freeze({});

/** A bound on the spans kept by the trace context they handed out (each leaves when it ends). */
const MAX_HANDED_OUT = 10_000;

export function createOtelTracer(options: OtelTracerOptions): Tracer {
  const current = new AsyncLocalStorage<OtelSpan>();
  const propagator = new W3CTraceContextPropagator();
  const decide = decideFromEnv(options.env);
  const ids = new PooledIds();
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over the defaults given here.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': options.serviceVersion }))
    .merge(detectResources({ detectors: [envDetector] }));
  const processor = new BatchSpanProcessor({ exporter: options.exporter ?? exporterFor(options.env), ...batchOptionsFromEnv(options.env) });
  // Open spans by the `traceparent` they handed out: a child started from one (`spec.parent`, as the
  // gateway's relays pass their request's) gets the span itself as its parent, as the current span
  // would, rather than a remote context parsed from the string.
  const handedOut = new Map<string, OtelSpan>();
  const setting: SpanSetting = {
    resource,
    instrumentationScope: { name: 'switchboard', version: options.serviceVersion },
    processor,
    within: (span, fn) => current.run(span, fn),
    handedOut(traceparent, span) {
      if (handedOut.size >= MAX_HANDED_OUT) handedOut.delete(handedOut.keys().next().value!);
      handedOut.set(traceparent, span);
    },
    ended: (traceparent) => void handedOut.delete(traceparent),
  };

  /**
   * The caller's span context (an open span of ours that handed out that `traceparent`, else the
   * `traceparent` as the W3C propagator reads it; one it cannot read starts a new trace), else the
   * current span's.
   */
  const parentOf = (spec: SpanSpec): SpanContext | undefined => {
    const carrier = spec.parent;
    if (carrier && typeof carrier.traceparent === 'string') {
      const local = handedOut.get(carrier.traceparent);
      if (local) return local;
      const fields: Record<string, string> = { traceparent: carrier.traceparent };
      if (typeof carrier.tracestate === 'string') fields.tracestate = carrier.tracestate;
      return trace.getSpanContext(propagator.extract(ROOT_CONTEXT, fields, defaultTextMapGetter));
    }
    return current.getStore();
  };

  return {
    start(spec) {
      const parent = parentOf(spec);
      const traceId = parent ? parent.traceId : ids.generateTraceId();
      const kind = KINDS[spec.kind];
      // The samplers OTEL_TRACES_SAMPLER names decide on the parent and the trace id, never on
      // attributes: they get the spec's as they are.
      const sampled = decide(parent, traceId, spec.name, kind, spec.attributes as Attributes);
      return new OtelSpan(setting, spec.name, kind, sampled ? spec.attributes : NOT_RECORDED, sampled, traceId, ids.generateSpanId(), parent?.traceState, parent);
    },
    traceContext: () => current.getStore()?.traceContext(),
    async shutdown() {
      await processor.shutdown();
    },
  };
}
