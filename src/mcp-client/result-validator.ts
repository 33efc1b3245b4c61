// The result validator a spec request gets when its caller passes no schema, built once per wire
// codec and method. The SDK builds one per request, and to learn whether the method has a result
// schema in the era it first validates `undefined` against it and formats the failure (zod's issue
// list, pretty-printed): about 5 µs of a tools/call's CPU, on every call, for the same answer.
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

/** The codec surface used here (the SDK's WireCodec, which it does not export). */
export interface ResultCodec {
  validateResult(method: string, raw: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string; readonly message?: string };
}

const cache = new WeakMap<ResultCodec, Map<string, StandardSchemaV1 | null>>();

/**
 * The same Standard Schema the SDK's `request()` builds for `method` (its `codecResultValidator`):
 * the codec's verdict, with its message when invalid. Null when the era has no result schema for
 * the method; the caller then lets the SDK refuse the request as it does.
 */
export function resultValidator(codec: ResultCodec, method: string): StandardSchemaV1 | null {
  let byMethod = cache.get(codec);
  if (!byMethod) cache.set(codec, (byMethod = new Map()));
  let validator = byMethod.get(method);
  if (validator === undefined) {
    const probe = codec.validateResult(method, undefined);
    validator =
      !probe.ok && probe.reason === 'not-in-era'
        ? null
        : {
            '~standard': {
              version: 1,
              vendor: 'mcp-wire-codec',
              validate(value: unknown) {
                const outcome = codec.validateResult(method, value);
                if (outcome.ok) return { value: outcome.value };
                return { issues: [{ message: outcome.reason === 'invalid' ? (outcome.message ?? '') : `not-in-era: ${method}` }] };
              },
            },
          };
    byMethod.set(method, validator);
  }
  return validator;
}
