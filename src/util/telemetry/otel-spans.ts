// The spans the OpenTelemetry tracer hands out: one small object per span that is at once the handle
// callers hold, the trace context outgoing requests carry (its `traceparent` built once), and, when
// sampled, the SDK's ReadableSpan its batch processor exports; times are turned into the SDK's form
// only when exported. Ids come from a random pool.
import { randomFillSync } from 'node:crypto';
import { SpanStatusCode, TraceFlags, type Attributes, type HrTime, type Link, type SpanContext, type SpanKind, type SpanStatus, type TraceState } from '@opentelemetry/api';
import { addHrTimes, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { IdGenerator, ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace';
import type { AttrValue, OpenSpan, SpanSpec, TraceContext } from './telemetry.js';

type SpanAttributes = SpanSpec['attributes'];

const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);
const NO_LINKS = Object.freeze([]) as unknown as Link[];
const NO_EVENTS = Object.freeze([]) as unknown as TimedEvent[];
const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
const FAILED: SpanStatus = Object.freeze({ code: SpanStatusCode.ERROR });

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

/** What every span of one tracer shares. */
export interface SpanSetting {
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  readonly processor: SpanProcessor;
  /** Runs `fn` with `span` as the current span (the tracer's async context). */
  within<T>(span: OtelSpan, fn: () => T): T;
  /** `span` handed out its trace context (`traceparent`): children started from it are its own. */
  handedOut(traceparent: string, span: OtelSpan): void;
  /** A span that handed out `traceparent` ended. */
  ended(traceparent: string): void;
}

/** The attributes with a value (the SDK drops undefined ones too). */
function definedOf(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A span, also its own span context (one object less per span). */
export class OtelSpan implements OpenSpan, ReadableSpan, SpanContext {
  readonly links = NO_LINKS;
  readonly events = NO_EVENTS;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly traceFlags: number;
  status = UNSET;
  ended = false;
  // Wall-clock start (as the SDK's spans: Date.now()) and the monotonic clock for the duration.
  private readonly startedAt: number;
  private readonly t0: number;
  private t1 = 0;
  // The span's own attributes, copied from the given ones at the first write or the export: most
  // spans are never written to, and their copy is then made in the batch, not on the call's path.
  private own: Attributes | undefined;
  private carried: TraceContext | undefined;

  /**
   * `given`: the spec's attributes, which nobody changes after the start; a span not recorded is
   * only the trace context it passes on.
   */
  constructor(
    private readonly setting: SpanSetting,
    readonly name: string,
    readonly kind: SpanKind,
    private readonly given: SpanAttributes,
    /** Recorded and exported: the span is sampled. */
    private readonly recording: boolean,
    readonly traceId: string,
    readonly spanId: string,
    readonly traceState: TraceState | undefined,
    readonly parentSpanContext: SpanContext | undefined,
  ) {
    this.traceFlags = recording ? TraceFlags.SAMPLED : TraceFlags.NONE;
    this.startedAt = Date.now();
    this.t0 = performance.now();
  }

  spanContext(): SpanContext {
    return this;
  }

  get attributes(): Attributes {
    return (this.own ??= definedOf(this.given));
  }

  /**
   * W3C trace context naming this span as the parent, as the SDK's propagator writes it. Made once
   * and shared: callers copy it, never change it.
   */
  traceContext(): TraceContext {
    if (this.carried) return this.carried;
    const traceparent = `00-${this.traceId}-${this.spanId}-${this.recording ? '01' : '00'}`;
    const tracestate = this.traceState?.serialize();
    if (!this.ended) this.setting.handedOut(traceparent, this);
    return (this.carried = tracestate ? { traceparent, tracestate } : { traceparent });
  }

  set(key: string, value: AttrValue): void {
    if (this.recording && !this.ended) this.attributes[key] = value;
  }

  fail(errorType: string): void {
    if (!this.recording || this.ended) return;
    this.attributes['error.type'] = errorType;
    this.status = FAILED;
  }

  within<T>(fn: () => T): T {
    return this.setting.within(this, fn);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.carried) this.setting.ended(this.carried.traceparent);
    if (!this.recording) return;
    this.t1 = performance.now();
    this.setting.processor.onEnd(this);
  }

  get resource(): Resource {
    return this.setting.resource;
  }

  get instrumentationScope(): InstrumentationScope {
    return this.setting.instrumentationScope;
  }

  get startTime(): HrTime {
    return millisToHrTime(this.startedAt);
  }

  get endTime(): HrTime {
    return this.ended ? addHrTimes(this.startTime, this.duration) : [0, 0];
  }

  get duration(): HrTime {
    return this.ended ? millisToHrTime(Math.max(0, this.t1 - this.t0)) : [-1, -1];
  }
}
