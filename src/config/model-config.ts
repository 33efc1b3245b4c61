// Model provider settings ([model_providers.<id>]): Codex's keys as a zod schema (the source of the type and
// of the validation, with today's texts), and the built-in providers a table may override.
// Types from zod/v3, the API the schemas use: it loads in ~6.5 ms where 'zod' (v4) takes ~40 ms, on every CLI start.
import type { z } from 'zod/v3';
import { ConfigError } from './config-error.js';
import { accepted, builtOnFirstUse, isObjectTable, keyOf, nonNegativeNumber, objectOf, oneOf, parseTable, string } from './schema-fields.js';

/** Keys of a provider table, in check order (the first problem is the one reported); built when a table is read (builtOnFirstUse). */
const providerSchema = builtOnFirstUse(() => {
  /** `<key> must be a table of strings`, whatever is wrong (the table is taken as it is). */
  const stringTable = accepted(
    (v): v is Record<string, string> => isObjectTable(v) && Object.values(v).every((x) => typeof x === 'string'),
    (iss) => `${keyOf(iss)} must be a table of strings`,
  );

  return objectOf({
    wire_api: oneOf(['responses', 'chat'], 'wire_api must be "responses" or "chat"').optional(),
    name: string.optional(),
    base_url: string.optional(),
    env_key: string.optional(),
    query_params: stringTable.optional(),
    http_headers: stringTable.optional(),
    env_http_headers: stringTable.optional(),
    request_max_retries: nonNegativeNumber.optional(),
    stream_max_retries: nonNegativeNumber.optional(),
    stream_idle_timeout_ms: nonNegativeNumber.optional(),
  });
});

type ProviderTable = z.output<ReturnType<typeof providerSchema>>;
export type WireApi = NonNullable<ProviderTable['wire_api']>;

/** A provider: the table's keys (absent ones null), over the built-in provider of the same id if any. */
export type ModelProviderConfig = { id: string; name: string; wire_api: WireApi } & {
  [K in Exclude<keyof ProviderTable, 'name' | 'wire_api'>]-?: NonNullable<ProviderTable[K]> | null;
};

/** A built-in provider: what it sets, every other key absent (null). */
function builtIn(fields: Pick<ModelProviderConfig, 'id' | 'name' | 'base_url' | 'env_key' | 'wire_api'>): ModelProviderConfig {
  const absent = { query_params: null, http_headers: null, env_http_headers: null, request_max_retries: null, stream_max_retries: null, stream_idle_timeout_ms: null };
  return { ...fields, ...absent };
}

export const BUILT_IN_PROVIDERS: Readonly<Record<string, ModelProviderConfig>> = {
  openai: builtIn({ id: 'openai', name: 'OpenAI', base_url: null, env_key: 'OPENAI_API_KEY', wire_api: 'responses' }),
  oss: builtIn({ id: 'oss', name: 'gpt-oss', base_url: 'http://localhost:11434/v1', env_key: null, wire_api: 'chat' }),
};

export function parseModelProvider(id: string, raw: unknown): ModelProviderConfig {
  const where = ['model_providers', id];
  if (!isObjectTable(raw)) throw new ConfigError('model provider must be a table', { keyPath: where });
  const t = parseTable(providerSchema(), raw, where);
  const base = BUILT_IN_PROVIDERS[id];
  return {
    id,
    name: t.name ?? base?.name ?? id,
    base_url: t.base_url ?? base?.base_url ?? null,
    env_key: t.env_key ?? base?.env_key ?? null,
    wire_api: t.wire_api ?? base?.wire_api ?? 'responses',
    query_params: t.query_params ?? null,
    http_headers: t.http_headers ?? null,
    env_http_headers: t.env_http_headers ?? null,
    request_max_retries: t.request_max_retries ?? null,
    stream_max_retries: t.stream_max_retries ?? null,
    stream_idle_timeout_ms: t.stream_idle_timeout_ms ?? null,
  };
}
