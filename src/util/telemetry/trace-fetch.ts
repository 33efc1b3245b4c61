// Outgoing HTTP carries the current trace context: a fetch wrapper that adds `traceparent` (and
// `tracestate`) headers. Used for upstream MCP servers and the model provider, only while tracing.
import type { Telemetry, TraceContext } from './telemetry.js';

type AnyFetch = (input: never, init?: RequestInit) => Promise<Response>;
type LooseFetch = (input: unknown, init?: RequestInit) => Promise<Response>;

/** `base` (default: the global fetch) adding the current trace context's headers; `base` itself when not tracing. */
export function tracingFetch<F extends AnyFetch = typeof fetch>(base: F | undefined, telemetry: Telemetry): F | undefined {
  if (!telemetry.tracing) return base;
  const inner = (base ?? fetch) as unknown as LooseFetch;
  const wrapped: LooseFetch = (input, init) => {
    const tc = telemetry.traceContext();
    if (!tc) return inner(input, init);
    const headers = new Headers(init?.headers);
    headers.set('traceparent', tc.traceparent);
    if (tc.tracestate) headers.set('tracestate', tc.tracestate);
    return inner(input, { ...init, headers });
  };
  return wrapped as unknown as F;
}

/** `_meta` for a request: the caller's, with the trace context `tc` (when tracing) written over it. */
export function metaWithTrace(meta: Record<string, unknown> | undefined, tc: TraceContext | undefined): Record<string, unknown> | undefined {
  if (!tc) return meta;
  if (meta === undefined) return { ...tc };
  const { tracestate: _stale, ...rest } = meta;
  return { ...rest, ...tc };
}
