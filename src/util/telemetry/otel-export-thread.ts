// Span export off the event loop: a SpanExporter for the batch processor that hands each batch, as
// plain records, to a worker thread running the SDK's OTLP/HTTP exporter (otel-export-worker.ts).
// The worker starts with the first batch, and holds the process open only while a batch is out.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Attributes } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult, type InstrumentationScope } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** What the worker is started with. */
export interface ExportSetup {
  url: string | undefined;
  resource: Attributes;
  scope: InstrumentationScope;
}

/**
 * A batch as it crosses to the worker: one flat array of primitives, each span's fields in the order
 * `flatten` writes them (copying many small objects between threads costs more than the export saves).
 */
export type FlatSpans = (string | number | boolean | undefined)[];

export type ToThread = { kind: 'export'; id: number; spans: FlatSpans } | { kind: 'shutdown'; id: number };
type FromThread = { id: number; code: number; error?: string };

const WORKER = new URL('./otel-export-worker.js', import.meta.url);

/** Whether the worker's module is there (it is in the build; running from the sources it is not). */
export function exportThreadAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER));
}

/** name, kind, trace id, span id, flags, tracestate, parent span id, parent remote, start s, start ns, end s, end ns, status code, status message, attribute count, then key and value of each. */
function flatten(spans: ReadableSpan[]): FlatSpans {
  const out: FlatSpans = [];
  for (const span of spans) {
    const ctx = span.spanContext();
    const parent = span.parentSpanContext;
    const [s0, s1] = span.startTime;
    const [e0, e1] = span.endTime;
    out.push(span.name, span.kind, ctx.traceId, ctx.spanId, ctx.traceFlags, ctx.traceState?.serialize(), parent?.spanId, parent?.isRemote, s0, s1, e0, e1, span.status.code, span.status.message);
    const attributes = span.attributes;
    const at = out.push(0) - 1;
    let n = 0;
    for (const key in attributes) {
      const value = attributes[key];
      // Only the scalar values switchboard's spans carry.
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        out.push(key, value);
        n++;
      }
    }
    out[at] = n;
  }
  return out;
}

export class ThreadSpanExporter implements SpanExporter {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, (reply: FromThread) => void>();

  constructor(private readonly setup: ExportSetup) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.send({ kind: 'export', id: 0, spans: flatten(spans) }, (reply) =>
      done(reply.code === ExportResultCode.SUCCESS ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: new Error(reply.error ?? 'span export failed') }),
    );
  }

  async shutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await new Promise<void>((resolve) => this.send({ kind: 'shutdown', id: 0 }, () => resolve()));
    this.worker = undefined;
    await worker.terminate();
  }

  async forceFlush(): Promise<void> {}

  private send(message: ToThread, reply: (r: FromThread) => void): void {
    const worker = (this.worker ??= this.start());
    const id = ++this.next;
    this.waiting.set(id, reply);
    // A batch out keeps the process alive until it is sent, as the exporter's request would.
    worker.ref();
    worker.postMessage({ ...message, id });
  }

  private start(): Worker {
    const worker = new Worker(WORKER, { workerData: this.setup });
    worker.unref();
    worker.on('message', (reply: FromThread) => {
      const answer = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      answer?.(reply);
    });
    // A worker that failed or ended answers what it still owed with a failure; the next batch starts another.
    const lost = (error: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const answer of this.waiting.values()) answer({ id: 0, code: ExportResultCode.FAILED, error });
      this.waiting.clear();
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`span export thread exited (${code})`));
    return worker;
  }
}
