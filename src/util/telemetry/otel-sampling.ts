// Which spans are recorded and exported: OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG read into the
// SDK's samplers, and the decision per span, taken without them where their answer is fixed.
import { ROOT_CONTEXT, TraceFlags, type Attributes, type SpanContext, type SpanKind } from '@opentelemetry/api';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';

interface SamplerSetting {
  /** The parentbased_* samplers: a span with a parent follows it. */
  parentBased: boolean;
  /** The sampler of a span without a parent (or of every span, when not parent-based). */
  root: Sampler;
}

function readSampler(env: NodeJS.ProcessEnv): SamplerSetting {
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const rootOf = (name: string): Sampler => {
    if (name === 'always_off') return new AlwaysOffSampler();
    if (name === 'traceidratio') return new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? ratio : 1);
    return new AlwaysOnSampler();
  };
  const name = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase();
  const parentBased = name.startsWith('parentbased_');
  return { parentBased, root: rootOf(parentBased ? name.slice('parentbased_'.length) : name) };
}

/** OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG as the SDK's sampler (the SDK leaves reading them to its distributions). */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const { parentBased, root } = readSampler(env);
  return parentBased ? new ParentBasedSampler({ root }) : root;
}

/** Whether a span is recorded and exported (these samplers only ever answer both or neither). */
export type Decide = (parent: SpanContext | undefined, traceId: string, name: string, kind: SpanKind, attributes: Attributes) => boolean;

/**
 * The decision `samplerFromEnv(env)` takes, without asking it where the answer is fixed: a
 * parentbased_* span with a parent follows the parent's sampled flag (the ParentBasedSampler's
 * defaults for local and remote parents alike), always_on and always_off answer alone. Asking costs
 * a context and a result object per span, a good part of a gateway call's tracing. The trace-id
 * ratio is still the SDK sampler's.
 */
export function decideFromEnv(env: NodeJS.ProcessEnv): Decide {
  const { parentBased, root } = readSampler(env);
  const fixed = root instanceof AlwaysOnSampler ? true : root instanceof AlwaysOffSampler ? false : undefined;
  return (parent, traceId, name, kind, attributes) => {
    if (parentBased && parent) return (parent.traceFlags & TraceFlags.SAMPLED) !== 0;
    if (fixed !== undefined) return fixed;
    // The ratio sampler looks at the trace id alone.
    return root.shouldSample(ROOT_CONTEXT, traceId, name, kind, attributes, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
  };
}
