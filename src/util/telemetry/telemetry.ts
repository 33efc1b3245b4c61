// The one instrumentation interface every layer calls: spans (traced when an OpenTelemetry tracer is
// loaded) whose ends also feed listeners (metrics, the status page). With neither, it is a no-op.
export type AttrValue = string | number | boolean;
export type Attributes = Record<string, AttrValue | undefined>;

/** W3C trace context as it travels in `_meta` and in HTTP headers. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

export interface SpanSpec {
  /** `{mcp.method.name} {target}`, `chat {model}`, `invoke_agent switchboard`, ... */
  name: string;
  kind: 'server' | 'client' | 'internal';
  /** Semantic-convention attributes; never argument values or results. */
  attributes: Attributes;
  /** The caller's trace context for a request served (from `_meta` or the HTTP header). */
  parent?: { traceparent?: unknown; tracestate?: unknown };
}

export interface SpanHandle {
  set(key: string, value: AttrValue): void;
  /** The operation failed; `errorType` becomes `error.type` (a class or code, never a message). */
  fail(errorType: string): void;
  /** The trace context naming this span as the parent, for a request made on its behalf; undefined when not tracing. */
  traceContext(): TraceContext | undefined;
}

/** A span started and not yet ended (the shape for requests whose start and end are separate events). */
export interface OpenSpan extends SpanHandle {
  /** Runs `fn` with this span as the current one (what outgoing requests inside it carry). */
  within<T>(fn: () => T): T;
  end(): void;
}

/** How a span went, as listeners see it. */
export interface EndedSpan {
  spec: SpanSpec;
  /** The attributes at the end (the spec's plus those set while it ran). */
  attributes: Attributes;
  durationMs: number;
  errorType: string | undefined;
  endedAt: number;
}

export interface TelemetryListener {
  started?(spec: SpanSpec): void;
  ended(span: EndedSpan): void;
}

/** The tracing backend (OpenTelemetry, loaded only when export is configured). */
export interface Tracer {
  start(spec: SpanSpec): OpenSpan;
  traceContext(): TraceContext | undefined;
  shutdown(): Promise<void>;
}

export interface Telemetry {
  /** False for the no-op: callers may skip preparing what only telemetry would use. */
  readonly active: boolean;
  readonly tracing: boolean;
  start(spec: SpanSpec): OpenSpan;
  /**
   * Runs `fn` inside a span that ends when it settles (a rejection marks it failed by its error's code
   * or class). The span is the current one while `fn` runs unless `current` is false: then `fn` passes
   * its context on itself (`span.traceContext()`), which spares the async context's cost per call.
   */
  span<T>(spec: SpanSpec, fn: (span: SpanHandle) => Promise<T>, options?: { current?: boolean }): Promise<T>;
  /** The current trace context, for an outgoing request; undefined when not tracing. */
  traceContext(): TraceContext | undefined;
  /** Flushes and stops the exporter. */
  shutdown(): Promise<void>;
}

const NOOP_SPAN: OpenSpan = Object.freeze({
  set() {},
  fail() {},
  traceContext: () => undefined,
  within: <T>(fn: () => T): T => fn(),
  end() {},
});

/** Nothing recorded, nothing exported: one function call per instrumented operation. */
export const NOOP_TELEMETRY: Telemetry = Object.freeze({
  active: false,
  tracing: false,
  start: () => NOOP_SPAN,
  span: <T>(_spec: SpanSpec, fn: (span: SpanHandle) => Promise<T>, _options?: { current?: boolean }): Promise<T> => fn(NOOP_SPAN),
  traceContext: () => undefined,
  shutdown: async () => {},
});

/** The error's class of failure for `error.type`: its code, else its class name. */
export function errorTypeOf(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
    if (err instanceof Error && err.name) return err.name;
  }
  return '_OTHER';
}

class ObservedSpan implements OpenSpan {
  private readonly t0 = performance.now();
  private readonly attributes: Attributes;
  private errorType: string | undefined;
  private done = false;

  constructor(
    private readonly spec: SpanSpec,
    private readonly inner: OpenSpan,
    private readonly listeners: readonly TelemetryListener[],
  ) {
    this.attributes = { ...spec.attributes };
    for (const l of listeners) l.started?.(spec);
  }

  set(key: string, value: AttrValue): void {
    this.attributes[key] = value;
    this.inner.set(key, value);
  }

  fail(errorType: string): void {
    this.errorType = errorType;
    this.inner.fail(errorType);
  }

  within<T>(fn: () => T): T {
    return this.inner.within(fn);
  }

  traceContext(): TraceContext | undefined {
    return this.inner.traceContext();
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.inner.end();
    const ended: EndedSpan = { spec: this.spec, attributes: this.attributes, durationMs: performance.now() - this.t0, errorType: this.errorType, endedAt: Date.now() };
    for (const l of this.listeners) l.ended(ended);
  }
}

/** Telemetry over a tracer (or none) and listeners; the no-op when there is neither. */
export function createTelemetry(options: { tracer?: Tracer | null; listeners?: readonly TelemetryListener[] } = {}): Telemetry {
  const tracer = options.tracer ?? null;
  const listeners = options.listeners ?? [];
  if (!tracer && listeners.length === 0) return NOOP_TELEMETRY;
  const start = (spec: SpanSpec): OpenSpan => {
    const inner = tracer ? tracer.start(spec) : NOOP_SPAN;
    return listeners.length === 0 ? inner : new ObservedSpan(spec, inner, listeners);
  };
  return {
    active: true,
    tracing: tracer !== null,
    start,
    // Reactions on fn's promise rather than an async function around it: one frame less per span,
    // and the upstream call of every tool call runs through here.
    span<T>(spec: SpanSpec, fn: (span: SpanHandle) => Promise<T>, options?: { current?: boolean }): Promise<T> {
      const span = start(spec);
      const failed = (err: unknown): never => {
        span.fail(errorTypeOf(err));
        span.end();
        throw err;
      };
      let running: Promise<T>;
      try {
        running = options?.current === false ? fn(span) : span.within(() => fn(span));
      } catch (err) {
        return Promise.reject(err).catch(failed);
      }
      return running.then((value) => {
        span.end();
        return value;
      }, failed);
    },
    traceContext: () => tracer?.traceContext(),
    // A collector that is down must not fail the process on its way out.
    shutdown: async () => tracer?.shutdown().catch(() => {}),
  };
}
