// Turning a [model_providers.<id>] entry into connection settings: base URL, API key from env_key,
// static and env-derived headers, query parameters, retry budgets (Codex's defaults and caps).
import type { ModelProviderConfig } from '../../config/index.js';
import { missingApiKeyError } from './model-error.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_REQUEST_MAX_RETRIES = 4;
export const DEFAULT_STREAM_MAX_RETRIES = 5;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;
const MAX_RETRIES_CAP = 100;

export interface ResolvedProvider {
  id: string;
  wireApi: 'responses' | 'chat';
  baseUrl: string;
  /** null when the provider needs no key (no env_key). */
  apiKey: string | null;
  headers: Record<string, string>;
  query: Record<string, string>;
  requestMaxRetries: number;
  streamMaxRetries: number;
  streamIdleTimeoutMs: number;
}

/**
 * Resolve a provider against the environment. Throws ModelError `missing_api_key` naming the
 * variable when env_key is set but empty or absent.
 */
export function resolveProvider(provider: ModelProviderConfig, env: NodeJS.ProcessEnv): ResolvedProvider {
  let apiKey: string | null = null;
  if (provider.env_key) {
    const value = env[provider.env_key];
    if (value === undefined || value.trim() === '') throw missingApiKeyError(provider.env_key, provider.id);
    apiKey = value.trim();
  }
  const headers: Record<string, string> = { ...(provider.http_headers ?? {}) };
  for (const [header, variable] of Object.entries(provider.env_http_headers ?? {})) {
    const value = env[variable];
    if (value !== undefined && value.trim() !== '') headers[header] = value;
  }
  const baseUrl = provider.base_url ?? (provider.id === 'openai' ? (env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL) : DEFAULT_OPENAI_BASE_URL);
  return {
    id: provider.id,
    wireApi: provider.wire_api,
    baseUrl,
    apiKey,
    headers,
    query: { ...(provider.query_params ?? {}) },
    requestMaxRetries: Math.min(provider.request_max_retries ?? DEFAULT_REQUEST_MAX_RETRIES, MAX_RETRIES_CAP),
    streamMaxRetries: Math.min(provider.stream_max_retries ?? DEFAULT_STREAM_MAX_RETRIES, MAX_RETRIES_CAP),
    streamIdleTimeoutMs: provider.stream_idle_timeout_ms ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  };
}
