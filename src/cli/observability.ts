// Telemetry for a long-running command: the OpenTelemetry tracer when the OTEL_* variables ask for
// export (the SDK is not even loaded otherwise), and for endpoints the operations side (metrics,
// health, status page) with an optional `--metrics-listen` listener of its own.
import type { Ops } from '../mcp-host/ops/index.js';
import { VERSION } from '../util/index.js';
import { createTelemetry, loadTracer, type Telemetry } from '../util/telemetry/index.js';
import type { CliContext } from './context.js';
import { listenFlag } from './flag-values.js';

export interface Observability {
  telemetry: Telemetry;
  /** The endpoint's operations routes, when it has any. */
  ops: Ops | null;
  /** Stops the metrics listener and flushes the exporter. */
  close(): Promise<void>;
}

/**
 * `withOps`: the command serves operations routes (an HTTP endpoint, or --metrics-listen). The
 * listener's URL goes to stderr (stdout's first line stays the endpoint's).
 */
export async function startObservability(ctx: CliContext, options: { title: string; withOps: boolean; metricsListen?: string | undefined }): Promise<Observability> {
  const metricsListen = options.metricsListen === undefined ? undefined : listenFlag('--metrics-listen', options.metricsListen);
  const tracer = await loadTracer(ctx.env, { name: 'switchboard', version: VERSION });
  if (!options.withOps && metricsListen === undefined) {
    const telemetry = createTelemetry({ tracer });
    return { telemetry, ops: null, close: () => telemetry.shutdown() };
  }
  const { createOps, startOpsListener } = await import('../mcp-host/ops/index.js');
  const ops = await createOps({ title: options.title, version: VERSION, tracer });
  const listener = metricsListen ? await startOpsListener(ops, metricsListen, ctx.logger) : null;
  if (listener) ctx.stderr.write(`metrics on ${listener.url}\n`);
  return {
    telemetry: ops.telemetry,
    ops,
    async close() {
      await listener?.close();
      await ops.close();
    },
  };
}
