// The spans the OpenTelemetry tracer hands out: ids drawn from a random pool, the sampling decision
// taken first, and the SDK's span made only for a span that records; one that does not is only the
// context outgoing requests carry (what the SDK would make of it too, for less work per request).
import { randomFillSync } from 'node:crypto';
import { SpanStatusCode, trace, TraceFlags, type Context, type Span, type SpanKind, type Tracer as OtelApiTracer } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { SamplingDecision, type IdGenerator, type Sampler } from '@opentelemetry/sdk-trace';
import type { AttrValue, OpenSpan } from './telemetry.js';

/** Random ids from a pool refilled 4 KiB at a time (the SDK's generator draws Math.random per 4 bytes). */
class IdPool {
  private readonly pool = Buffer.alloc(4096);
  private at = this.pool.length;

  hex(bytes: number): string {
    if (this.at + bytes > this.pool.length) {
      randomFillSync(this.pool);
      this.at = 0;
    }
    const id = this.pool.toString('hex', this.at, (this.at += bytes));
    // All zeros is the invalid id: draw again (as good as never happens).
    return id === '0'.repeat(bytes * 2) ? this.hex(bytes) : id;
  }
}

/**
 * The provider's id generator: the ids a span was given when it was sampled are the ones the SDK's
 * span gets (handed over for the one startSpan call), fresh ones from the pool otherwise.
 */
export class HandedIds implements IdGenerator {
  private readonly pool = new IdPool();
  private next: { traceId: string; spanId: string } | undefined;

  fresh(): { traceId: string; spanId: string } {
    return { traceId: this.pool.hex(16), spanId: this.pool.hex(8) };
  }

  handOver<T>(ids: { traceId: string; spanId: string }, fn: () => T): T {
    this.next = ids;
    try {
      return fn();
    } finally {
      this.next = undefined;
    }
  }

  generateTraceId(): string {
    return this.next?.traceId ?? this.pool.hex(16);
  }

  generateSpanId(): string {
    return this.next?.spanId ?? this.pool.hex(8);
  }
}

/** What the spans share: the SDK tracer, its sampler and ids, and the context manager. */
export class OtelSpans {
  constructor(
    private readonly tracer: OtelApiTracer,
    private readonly sampler: Sampler,
    private readonly ids: HandedIds,
    private readonly contexts: AsyncLocalStorageContextManager,
  ) {}

  start(name: string, kind: SpanKind, attributes: Record<string, AttrValue>, parent: Context): OpenSpan {
    const parentContext = trace.getSpanContext(parent);
    const valid = parentContext !== undefined && trace.isSpanContextValid(parentContext);
    const ids = this.ids.fresh();
    if (valid) ids.traceId = parentContext.traceId;
    // The provider's sampler, asked again by startSpan, decides the same: it depends only on the
    // parent and the trace id (the standard samplers OTEL_TRACES_SAMPLER names).
    const sampling = this.sampler.shouldSample(parent, ids.traceId, name, kind, attributes, []);
    if (sampling.decision !== SamplingDecision.NOT_RECORD) {
      const span = this.ids.handOver(ids, () => this.tracer.startSpan(name, { kind, attributes }, parent));
      return new RecordedSpan(span, trace.setSpan(parent, span), this.contexts);
    }
    const traceState = sampling.traceState ?? (valid ? parentContext.traceState : undefined);
    const own = trace.wrapSpanContext({ ...ids, traceFlags: TraceFlags.NONE, ...(traceState ? { traceState } : {}) });
    return new ContextOnlySpan(trace.setSpan(parent, own), this.contexts);
  }
}

class ContextOnlySpan implements OpenSpan {
  constructor(
    private readonly ctx: Context,
    private readonly contexts: AsyncLocalStorageContextManager,
  ) {}

  set(): void {}
  fail(): void {}
  end(): void {}

  within<T>(fn: () => T): T {
    return this.contexts.with(this.ctx, fn);
  }
}

class RecordedSpan implements OpenSpan {
  constructor(
    private readonly span: Span,
    private readonly ctx: Context,
    private readonly contexts: AsyncLocalStorageContextManager,
  ) {}

  set(key: string, value: AttrValue): void {
    this.span.setAttribute(key, value);
  }

  fail(errorType: string): void {
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  within<T>(fn: () => T): T {
    return this.contexts.with(this.ctx, fn);
  }

  end(): void {
    this.span.end();
  }
}
