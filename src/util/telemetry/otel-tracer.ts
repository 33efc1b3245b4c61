// The OpenTelemetry tracer behind Telemetry: the official SDK exporting over OTLP/HTTP as the
// standard OTEL_* variables say. Loaded by dynamic import only when export is configured, and it sets
// no OpenTelemetry globals: its own context manager, tracer provider and propagator.
import { ROOT_CONTEXT, SpanKind, defaultTextMapGetter, defaultTextMapSetter, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { OtelSpans, PooledIds } from './otel-spans.js';
import type { SpanSpec, TraceContext, Tracer } from './telemetry.js';

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL } as const;

/** OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (the SDK leaves reading them to its distributions). */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const root = (name: string): Sampler => {
    if (name === 'always_off') return new AlwaysOffSampler();
    if (name === 'traceidratio') return new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? ratio : 1);
    return new AlwaysOnSampler();
  };
  const name = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root: root(name.slice('parentbased_'.length)) }) : root(name);
}

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

export function createOtelTracer(options: OtelTracerOptions): Tracer {
  const contexts = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over the defaults given here.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': options.serviceVersion }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler: samplerFromEnv(options.env),
    idGenerator: new PooledIds(),
    spanProcessors: [new BatchSpanProcessor({ exporter: options.exporter ?? exporterFor(options.env), ...batchOptionsFromEnv(options.env) })],
  });
  const spans = new OtelSpans(provider.getTracer('switchboard', options.serviceVersion), contexts);

  const parentOf = (spec: SpanSpec): Context => {
    const carrier = spec.parent;
    if (carrier && typeof carrier.traceparent === 'string') {
      const fields: Record<string, string> = { traceparent: carrier.traceparent };
      if (typeof carrier.tracestate === 'string') fields.tracestate = carrier.tracestate;
      return propagator.extract(ROOT_CONTEXT, fields, defaultTextMapGetter);
    }
    return contexts.active();
  };

  return {
    start(spec) {
      // The spec's attributes as they are: the SDK copies them and drops those left undefined.
      return spans.start(spec.name, KINDS[spec.kind], spec.attributes, parentOf(spec));
    },
    traceContext(): TraceContext | undefined {
      const carrier: Record<string, string> = {};
      propagator.inject(contexts.active(), carrier, defaultTextMapSetter);
      if (!carrier.traceparent) return undefined;
      return carrier.tracestate ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : { traceparent: carrier.traceparent };
    },
    async shutdown() {
      await provider.shutdown();
      contexts.disable();
    },
  };
}
