// The spans the OpenTelemetry tracer hands out: the SDK's span started bare (the sampler decides on
// the parent and the trace id alone) and its attributes set only when it records; one that does not
// is only the context outgoing requests carry. Ids come from a random pool.
import { randomFillSync } from 'node:crypto';
import { SpanStatusCode, trace, type Attributes, type Context, type Span, type SpanKind, type Tracer as OtelApiTracer } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { IdGenerator } from '@opentelemetry/sdk-trace';
import type { AttrValue, OpenSpan } from './telemetry.js';

const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/** Random ids in hex, cut from a pool refilled 4 KiB at a time (the SDK's generator draws Math.random per 4 bytes). */
export class PooledIds implements IdGenerator {
  private readonly bytes = Buffer.alloc(4096);
  // The pool in hex, converted once per refill: an id is then a slice, not a conversion of its own.
  private hexPool = '';
  private at = this.bytes.length;

  generateTraceId(): string {
    return this.hex(16, ZERO_TRACE_ID);
  }

  generateSpanId(): string {
    return this.hex(8, ZERO_SPAN_ID);
  }

  private hex(bytes: number, zero: string): string {
    if (this.at + bytes > this.bytes.length) {
      randomFillSync(this.bytes);
      this.hexPool = this.bytes.toString('hex');
      this.at = 0;
    }
    const id = this.hexPool.slice(this.at * 2, (this.at += bytes) * 2);
    // All zeros is the invalid id: draw again (as good as never happens).
    return id === zero ? this.hex(bytes, zero) : id;
  }
}

/** What the spans share: the SDK tracer and the context manager. */
export class OtelSpans {
  constructor(
    private readonly tracer: OtelApiTracer,
    private readonly contexts: AsyncLocalStorageContextManager,
  ) {}

  /**
   * `attributes` as the SDK takes them (undefined values it drops itself), set after the start: the
   * SDK would check and copy them twice there, and for a span not sampled for nothing. The samplers
   * OTEL_TRACES_SAMPLER names decide on the parent and the trace id, never on attributes.
   */
  start(name: string, kind: SpanKind, attributes: Attributes, parent: Context): OpenSpan {
    const span = this.tracer.startSpan(name, { kind }, parent);
    const ctx = trace.setSpan(parent, span);
    if (!span.isRecording()) return new ContextOnlySpan(ctx, this.contexts);
    span.setAttributes(attributes);
    return new RecordedSpan(span, ctx, this.contexts);
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
