// Whether the standard OTEL_* variables ask for trace export, and loading the OpenTelemetry SDK only
// then: without them nothing of OpenTelemetry is imported and telemetry stays the no-op.
import { importOptional } from '../optional-package.js';
import type { Tracer } from './telemetry.js';

/** The OpenTelemetry packages trace export needs: optional peer dependencies, installed by those who export. */
export const OTEL_PACKAGES = ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources', '@opentelemetry/sdk-trace'] as const;

/**
 * Export is on when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
 * OTEL_EXPORTER_OTLP_ENDPOINT) or OTEL_TRACES_EXPORTER names `otlp`; OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none turns it off.
 */
export function traceExportConfigured(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (exporters.includes('none')) return false;
  if (exporters.includes('otlp')) return true;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/** The OpenTelemetry tracer when export is configured, else null (and the SDK is never loaded). */
export async function loadTracer(env: NodeJS.ProcessEnv, service: { name: string; version: string }): Promise<Tracer | null> {
  if (!traceExportConfigured(env)) return null;
  const { createOtelTracer } = await importOptional('Trace export (OTEL_* variables set)', OTEL_PACKAGES, () => import('./otel-tracer.js'));
  return createOtelTracer({ env, serviceName: service.name, serviceVersion: service.version });
}
