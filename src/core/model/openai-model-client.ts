// ModelClient over the official `openai` package, for both wire APIs. The one place where model
// retries happen: 429 / 5xx / connection failures (request budget) and broken or idle streams
// (stream budget) are re-sent with backoff, each announced as a `retrying` event.
import type OpenAI from 'openai';
import type * as OpenAISdk from 'openai';
import type { ModelProviderConfig } from '../../config/index.js';
import { abortError, nullLogger, sleep, type Logger } from '../../util/index.js';
import { openChatStream, ChatDecoder } from './chat-wire.js';
import { ModelError, type RetryBudget } from './model-error.js';
import type { ModelClient, ModelRequest, ResponseEvent } from './model-types.js';
import { resolveProvider, type ResolvedProvider } from './provider.js';
import { openResponsesStream, ResponsesDecoder } from './responses-wire.js';
import type { WireDecoder } from './wire-decoder.js';

/** How the OpenAI-compatible model client reads keys, fetches and logs. */
export interface OpenAIModelClientOptions {
  /** Where env_key and env_http_headers are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Injected fetch (tests, proxies); default the global fetch. */
  fetch?: typeof fetch;
  logger?: Logger;
  /** First retry delay, doubled per retry (Codex: 200 ms). */
  retryBaseDelayMs?: number;
}

/**
 * The `openai` package (bundled by the build into one chunk, chunks/openai-*.js: scripts/bundle-options.ts),
 * imported by the first model request: a process that never calls a model, or has not yet
 * (`mcp-server` before its first turn), does not load it.
 */
let openaiModule: typeof OpenAISdk | undefined;

async function loadOpenAI(): Promise<typeof OpenAI> {
  openaiModule ??= await import('openai');
  return openaiModule.default;
}

const MAX_BACKOFF_MS = 30_000;
const MAX_RETRY_AFTER_MS = 60_000;

function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.min(Number(ms), MAX_RETRY_AFTER_MS);
  const secs = headers?.get('retry-after');
  if (secs && Number.isFinite(Number(secs))) return Math.min(Number(secs) * 1000, MAX_RETRY_AFTER_MS);
  return null;
}

/** Classify anything thrown while opening (`open`) or reading (`stream`) an attempt. */
export function classifyModelError(err: unknown, phase: 'open' | 'stream'): ModelError {
  if (err instanceof ModelError) return err;
  // The SDK's errors exist only once the SDK has been loaded.
  const OpenAI = openaiModule?.default;
  if (OpenAI && err instanceof OpenAI.APIConnectionError) {
    return new ModelError('model_connection_failed', `connection to the model failed: ${err.message}`, { retry: phase === 'open' ? 'request' : 'stream', cause: err });
  }
  if (OpenAI && err instanceof OpenAI.APIError) {
    const status = typeof err.status === 'number' ? err.status : null;
    if (status === null) {
      // An error payload inside the stream (SSE `error` event).
      return new ModelError(err.code ?? 'stream_error', err.message, { retry: 'stream', cause: err });
    }
    const retry: RetryBudget = status === 429 || status >= 500 || status === 408 ? 'request' : null;
    const code = status === 401 ? 'model_unauthorized' : status === 429 ? 'model_rate_limited' : 'model_http_error';
    return new ModelError(code, `unexpected status ${status}: ${err.message}`, {
      retry,
      status,
      retryAfterMs: retryAfterMs(err.headers),
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError('stream_error', `stream error: ${message}`, { retry: phase === 'open' ? 'request' : 'stream', cause: err });
}

function sdkLogger(logger: Logger) {
  const fmt = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
  return {
    debug: (...a: unknown[]) => logger.debug(fmt(a)),
    info: (...a: unknown[]) => logger.info(fmt(a)),
    warn: (...a: unknown[]) => logger.warn(fmt(a)),
    error: (...a: unknown[]) => logger.error(fmt(a)),
  };
}

export class OpenAIModelClient implements ModelClient {
  private readonly env: NodeJS.ProcessEnv;
  private readonly logger: Logger;
  private readonly baseDelayMs: number;

  constructor(
    private readonly provider: ModelProviderConfig,
    private readonly options: OpenAIModelClientOptions = {},
  ) {
    this.env = options.env ?? process.env;
    this.logger = (options.logger ?? nullLogger).child({ provider: provider.id });
    this.baseDelayMs = options.retryBaseDelayMs ?? 200;
  }

  private async sdk(resolved: ResolvedProvider): Promise<OpenAI> {
    const OpenAI = await loadOpenAI();
    return new OpenAI({
      // A provider without env_key sends no Authorization header at all (the null below removes it).
      apiKey: resolved.apiKey ?? 'no-key',
      baseURL: resolved.baseUrl,
      defaultHeaders: { ...resolved.headers, ...(resolved.apiKey === null ? { Authorization: null } : {}) },
      defaultQuery: resolved.query,
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
      maxRetries: 0,
      fetch: this.options.fetch,
      logger: sdkLogger(this.logger),
    });
  }

  private backoff(retry: number): number {
    const jitter = 0.9 + Math.random() * 0.2;
    return Math.min(Math.round(this.baseDelayMs * 2 ** (retry - 1) * jitter), MAX_BACKOFF_MS);
  }

  async *stream(request: ModelRequest, options: { signal: AbortSignal }): AsyncIterable<ResponseEvent> {
    const { signal } = options;
    const resolved = resolveProvider(this.provider, this.env);
    const client = await this.sdk(resolved);
    const used = { request: 0, stream: 0 };
    for (;;) {
      if (signal.aborted) throw abortError(signal);
      try {
        yield* this.attempt(client, resolved, request, signal);
        return;
      } catch (err) {
        if (signal.aborted) throw abortError(signal);
        const failure = err as ModelError;
        if (failure.retry === null) throw failure;
        const budget = failure.retry;
        const max = budget === 'request' ? resolved.requestMaxRetries : resolved.streamMaxRetries;
        used[budget] += 1;
        if (used[budget] > max) {
          const last = failure.status !== null ? `last status: ${failure.message.replace(/^unexpected status /, '')}` : `last error: ${failure.message}`;
          throw new ModelError(failure.code, `exceeded retry limit, ${last}`, { retry: null, status: failure.status, cause: failure });
        }
        const delayMs = failure.retryAfterMs ?? this.backoff(used[budget]);
        this.logger.warn('model request failed; retrying', { error: failure.message, attempt: used[budget], max, delayMs });
        yield { type: 'retrying', attempt: used[budget], maxAttempts: max, delayMs, message: failure.message, budget };
        await sleep(delayMs, signal);
      }
    }
  }

  /** One HTTP request and its stream; every failure leaves as a classified ModelError. */
  private async *attempt(client: OpenAI, resolved: ResolvedProvider, request: ModelRequest, signal: AbortSignal): AsyncIterable<ResponseEvent> {
    const idle = new AbortController();
    const attemptSignal = AbortSignal.any([signal, idle.signal]);
    const idleError = new ModelError('stream_idle_timeout', `idle timeout waiting for the model stream (${resolved.streamIdleTimeoutMs} ms)`, { retry: 'stream' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(idleError), resolved.streamIdleTimeoutMs);
    };
    const decoder: WireDecoder = resolved.wireApi === 'chat' ? new ChatDecoder() : new ResponsesDecoder();
    let phase: 'open' | 'stream' = 'open';
    try {
      arm();
      const source = resolved.wireApi === 'chat' ? await openChatStream(client, request, attemptSignal) : await openResponsesStream(client, request, attemptSignal);
      phase = 'stream';
      for await (const value of source) {
        arm();
        const events = decoder.push(value);
        for (const ev of events) yield ev;
        if (decoder.isComplete && resolved.wireApi === 'responses') break;
      }
      // The SDK ends a stream quietly when its signal aborts; tell the cases apart here.
      if (idle.signal.aborted) throw idleError;
      if (signal.aborted) throw abortError(signal);
      for (const ev of decoder.end()) yield ev;
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      if (idle.signal.aborted) throw idleError;
      throw classifyModelError(err, phase);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The default factory the composition root hands to the ThreadManager. */
export function createOpenAIModelClient(provider: ModelProviderConfig, options: OpenAIModelClientOptions = {}): ModelClient {
  return new OpenAIModelClient(provider, options);
}
