// Telemetry: the one instrumentation interface (spans feeding tracing and metrics listeners), its
// no-op, W3C trace context on outgoing requests, and the lazily loaded OpenTelemetry tracer.
export * from './telemetry.js';
export * from './semconv.js';
export { loadTracer, traceExportConfigured } from './load-tracer.js';
export { metaWithTrace, tracingFetch } from './trace-fetch.js';
