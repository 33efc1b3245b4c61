// Model failures, classified once: what is retried (and against which budget) and what ends the turn.
import { SwitchboardError } from '../../util/index.js';

/**
 * `retry` says whether the attempt may be re-sent: `request` for HTTP failures before the stream
 * started (429, 5xx, connection refused), `stream` for a stream that broke after it started,
 * `null` for hard failures (bad request, auth, quota, missing key).
 */
export type RetryBudget = 'request' | 'stream' | null;

/** A model request that failed: whether it may be retried (and against which budget), and the HTTP status. */
export class ModelError extends SwitchboardError {
  readonly retry: RetryBudget;
  readonly status: number | null;
  /** Server-suggested delay (Retry-After), when it gave one. */
  readonly retryAfterMs: number | null;

  constructor(
    code: string,
    message: string,
    options: { retry: RetryBudget; status?: number | null; retryAfterMs?: number | null; cause?: unknown },
  ) {
    super(code, message, { cause: options.cause });
    this.name = 'ModelError';
    this.retry = options.retry;
    this.status = options.status ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/** Codex's wording for a provider whose env_key is not set. */
export function missingApiKeyError(envKey: string, providerId: string): ModelError {
  return new ModelError(
    'missing_api_key',
    `Missing environment variable: \`${envKey}\`. Set it to the API key for model provider \`${providerId}\` ` +
      `(env_key in [model_providers.${providerId}]), or choose another provider with model_provider.`,
    { retry: null },
  );
}
