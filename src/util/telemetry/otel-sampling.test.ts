import { ROOT_CONTEXT, SpanKind, trace, type SpanContext } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { PooledIds } from './otel-spans.js';
import { decideFromEnv, samplerFromEnv } from './otel-sampling.js';

describe('decideFromEnv', () => {
  it('decides as the SDK sampler OTEL_TRACES_SAMPLER names, for every parent', () => {
    const ids = new PooledIds();
    const parents: (SpanContext | undefined)[] = [undefined];
    for (const isRemote of [false, true]) for (const traceFlags of [0, 1]) parents.push({ traceId: ids.generateTraceId(), spanId: ids.generateSpanId(), traceFlags, isRemote });
    const samplers = ['', 'always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];
    for (const name of samplers) {
      const env = { ...(name ? { OTEL_TRACES_SAMPLER: name } : {}), OTEL_TRACES_SAMPLER_ARG: '0.5' };
      const sdk = samplerFromEnv(env);
      const decide = decideFromEnv(env);
      for (const parent of parents) {
        // Enough trace ids that a ratio of 0.5 answers both ways.
        for (let i = 0; i < 32; i++) {
          const traceId = parent?.traceId ?? ids.generateTraceId();
          const context = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
          const expected = sdk.shouldSample(context, traceId, 'x', SpanKind.SERVER, {}, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
          expect(decide(parent, traceId, 'x', SpanKind.SERVER, {}), `${name || 'default'} ${JSON.stringify(parent)}`).toBe(expected);
        }
      }
    }
  });
});
