// Model provider settings ([model_providers.<id>], model, model_provider), Codex's keys and built-ins.
import { ConfigError } from './config-error.js';

export type WireApi = 'responses' | 'chat';

/** A `[model_providers.<id>]` table (or a built-in provider): an OpenAI-compatible endpoint and its key variable. */
export interface ModelProviderConfig {
  id: string;
  name: string;
  base_url: string | null;
  env_key: string | null;
  wire_api: WireApi;
  query_params: Record<string, string> | null;
  http_headers: Record<string, string> | null;
  env_http_headers: Record<string, string> | null;
  request_max_retries: number | null;
  stream_max_retries: number | null;
  stream_idle_timeout_ms: number | null;
}

export const BUILT_IN_PROVIDERS: Readonly<Record<string, ModelProviderConfig>> = {
  openai: {
    id: 'openai',
    name: 'OpenAI',
    base_url: null,
    env_key: 'OPENAI_API_KEY',
    wire_api: 'responses',
    query_params: null,
    http_headers: null,
    env_http_headers: null,
    request_max_retries: null,
    stream_max_retries: null,
    stream_idle_timeout_ms: null,
  },
  oss: {
    id: 'oss',
    name: 'gpt-oss',
    base_url: 'http://localhost:11434/v1',
    env_key: null,
    wire_api: 'chat',
    query_params: null,
    http_headers: null,
    env_http_headers: null,
    request_max_retries: null,
    stream_max_retries: null,
    stream_idle_timeout_ms: null,
  },
};

type Raw = Record<string, unknown>;

function optString(raw: Raw, key: string, where: string[]): string | null {
  const v = raw[key];
  if (v === undefined) return null;
  if (typeof v !== 'string') throw new ConfigError(`${key} must be a string`, { keyPath: [...where, key] });
  return v;
}

function optNumber(raw: Raw, key: string, where: string[]): number | null {
  const v = raw[key];
  if (v === undefined) return null;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new ConfigError(`${key} must be a non-negative number`, { keyPath: [...where, key] });
  return n;
}

function optStringTable(raw: Raw, key: string, where: string[]): Record<string, string> | null {
  const v = raw[key];
  if (v === undefined) return null;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.values(v).some((x) => typeof x !== 'string')) {
    throw new ConfigError(`${key} must be a table of strings`, { keyPath: [...where, key] });
  }
  return v as Record<string, string>;
}

export function parseModelProvider(id: string, raw: unknown): ModelProviderConfig {
  const where = ['model_providers', id];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('model provider must be a table', { keyPath: where });
  const r = raw as Raw;
  const base = BUILT_IN_PROVIDERS[id];
  const wire = optString(r, 'wire_api', where) ?? base?.wire_api ?? 'responses';
  if (wire !== 'responses' && wire !== 'chat') throw new ConfigError('wire_api must be "responses" or "chat"', { keyPath: [...where, 'wire_api'] });
  return {
    id,
    name: optString(r, 'name', where) ?? base?.name ?? id,
    base_url: optString(r, 'base_url', where) ?? base?.base_url ?? null,
    env_key: optString(r, 'env_key', where) ?? base?.env_key ?? null,
    wire_api: wire,
    query_params: optStringTable(r, 'query_params', where),
    http_headers: optStringTable(r, 'http_headers', where),
    env_http_headers: optStringTable(r, 'env_http_headers', where),
    request_max_retries: optNumber(r, 'request_max_retries', where),
    stream_max_retries: optNumber(r, 'stream_max_retries', where),
    stream_idle_timeout_ms: optNumber(r, 'stream_idle_timeout_ms', where),
  };
}
