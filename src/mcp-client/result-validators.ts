// Each spec method's result validator built once per wire codec, not on every request. The SDK's
// request() builds it anew per call and first probes whether the method exists in the era by
// validating `undefined` against the result schema, which formats a zod error each time: about a
// tenth of the client's own CPU per tools/call through the gateway (issue 14). The validator here is
// the SDK's own (the codec's validateResult), the request goes through the SDK's funnel unchanged.
import { Client } from '@modelcontextprotocol/client';

type Outcome = { ok: true; value: unknown } | { ok: false; reason: string; message?: string };

interface Codec {
  validateResult(method: string, raw: unknown): Outcome;
}

interface Validator {
  '~standard': { version: 1; vendor: string; validate(value: unknown): { value: unknown } | { issues: { message: string }[] } };
}

/** The SDK's request internals this reaches for (private in its types). */
interface Internals {
  _resolveOutboundCodec(method: string): Codec;
  _assertOutboundRequestInEra(codec: Codec, method: string): void;
  _requestWithSchemaViaCodec(codec: Codec, request: { method: string }, schema: Validator, options: unknown): Promise<unknown>;
}

type Requester = (request: { method: string }, schemaOrOptions?: unknown, options?: unknown) => Promise<unknown>;

const cache = new WeakMap<Codec, Map<string, Validator>>();

/** What the SDK's `codecResultValidator` returns; undefined for a method outside the codec's era. */
function validatorFor(codec: Codec, method: string): Validator | undefined {
  let byMethod = cache.get(codec);
  const known = byMethod?.get(method);
  if (known) return known;
  const probe = codec.validateResult(method, undefined);
  if (!probe.ok && probe.reason === 'not-in-era') return undefined;
  const validator: Validator = {
    '~standard': {
      version: 1,
      vendor: 'mcp-wire-codec',
      validate(value) {
        const outcome = codec.validateResult(method, value);
        if (outcome.ok) return { value: outcome.value };
        return { issues: [{ message: outcome.reason === 'invalid' ? outcome.message! : `not-in-era: ${method}` }] };
      },
    },
  };
  if (!byMethod) cache.set(codec, (byMethod = new Map()));
  byMethod.set(method, validator);
  return validator;
}

const isStandardSchema = (value: unknown): boolean =>
  (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value && typeof (value as Validator)['~standard']?.validate === 'function';

/**
 * Makes `client.request` (schema-less calls: callTool, listTools, ...) reuse its validators. Does
 * nothing, leaving the SDK's path, when the SDK no longer has the internals this relies on.
 */
export function reuseResultValidators(client: Client): void {
  const inner = client as unknown as Internals & { request: Requester };
  if (typeof inner._resolveOutboundCodec !== 'function' || typeof inner._assertOutboundRequestInEra !== 'function' || typeof inner._requestWithSchemaViaCodec !== 'function') return;
  const sdkRequest = (Client.prototype as unknown as { request: Requester }).request;
  const withOurValidators: Requester = function (this: Internals & { request: Requester }, request, schemaOrOptions, options) {
    if (isStandardSchema(schemaOrOptions)) return sdkRequest.call(this, request, schemaOrOptions, options);
    // The SDK's order: the codec, the era check, then the validator (a method without one: its TypeError).
    const codec = this._resolveOutboundCodec(request.method);
    this._assertOutboundRequestInEra(codec, request.method);
    const validate = validatorFor(codec, request.method);
    if (!validate) return sdkRequest.call(this, request, schemaOrOptions, options);
    return this._requestWithSchemaViaCodec(codec, request, validate, schemaOrOptions);
  };
  inner.request = withOurValidators;
}
