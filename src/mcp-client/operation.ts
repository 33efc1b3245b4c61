// The one operation wrapper: every request to a server passes here, and only here are deadlines,
// transient retries, the 401 credential retry and the 404 session recovery applied, in that order.
import type { Progress } from '@modelcontextprotocol/client';
import { sleep } from '../util/index.js';
import type { SpanSpec, Telemetry, TraceContext } from '../util/telemetry/index.js';
import { Deadline } from './deadline.js';
import type { DeadlineWheel } from './deadline-wheel.js';
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, HTTP_RETRY_DELAYS_MS } from './defaults.js';
import { McpClientError, handshakeTimeoutMessage, isTransient, operationTimeoutMessage } from './errors.js';

/** What one attempt gets to hand to the SDK request. */
export interface AttemptOptions {
  signal: AbortSignal;
  /** The SDK's own timer; set a little past our deadline so ours decides. */
  timeout: number;
  maxTotalTimeout: number;
  resetTimeoutOnProgress: boolean;
  onprogress?: (progress: Progress) => void;
}

export interface OperationSpec {
  /** The method name used in texts: `tools/call`, `initialize`, ... */
  label: string;
  /** `handshake` uses Codex's handshake timeout text. */
  kind: 'handshake' | 'request';
  timeoutMs: number;
  maxTotalTimeoutMs?: number;
  /** The caller's signals; any of them aborting aborts the operation. */
  signals?: readonly (AbortSignal | undefined)[];
  /** The client's deadlines (closing it aborts the operation with its reason); a shared one by default. */
  wheel?: DeadlineWheel;
  /** Retry transient failures after 250 ms and 1000 ms (initialize and tools/list over HTTP). */
  retryTransient: boolean;
  /** Ask for progress: the deadline resets on each notification, which is handed on here. */
  onProgress?: (progress: Progress) => void;
  progress?: boolean;
  retryDelaysMs?: readonly number[];
}

export interface OperationHooks {
  /** Turn whatever an attempt threw into a typed error (never called for timeouts or aborts). */
  classify(err: unknown): McpClientError;
  /**
   * A 401 survived the transport's own refresh-and-retry, or a 403 insufficient_scope its step-up:
   * true when newer credentials are now available (another connection or process refreshed or logged
   * in again), so one more attempt is worth it.
   */
  adoptCredentials?(err: McpClientError, signal: AbortSignal): Promise<boolean>;
  /**
   * The session expired: rebuild the connection (or wait for whoever already is). Resolves false when
   * someone else did the recovery this operation only waited for (it is then not reported as ours).
   */
  recoverSession?(signal: AbortSignal): Promise<boolean | void>;
  /**
   * After a recovery, the session expired again. True when that was a later expiry of a session that
   * was in use (others were using or had used it), not a server refusing the new session outright.
   */
  mayRecoverAgain?(): boolean;
}

/**
 * The most session expiries one operation follows (each expiry is recovered once, shared by everyone
 * who meets it). A safety net only: a session refused before it answered anything ends the chain,
 * and the operation's deadline bounds it too.
 */
export const MAX_SESSION_RECOVERIES = 16;

export interface OperationOutcome<T> {
  value: T;
  /** This operation recovered the session (rather than only waiting for another's recovery). */
  recovered: boolean;
}

/** SDK slack: its timer must not beat ours, so the error text is always our deadline's. */
const SDK_TIMER_SLACK_MS = 1_000;

export async function runOperation<T>(
  spec: OperationSpec,
  hooks: OperationHooks,
  attempt: (options: AttemptOptions) => Promise<T>,
): Promise<OperationOutcome<T>> {
  const maxTotal = Math.max(spec.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS, spec.timeoutMs);
  // The text is built only when it is needed: most operations never time out.
  const timeoutText = () => (spec.kind === 'handshake' ? handshakeTimeoutMessage(spec.timeoutMs) : operationTimeoutMessage(spec.label, spec.timeoutMs));
  const deadline = new Deadline(spec.timeoutMs, maxTotal, () => new McpClientError('timeout', timeoutText()), spec.signals, spec.wheel);
  const signal = deadline.signal;
  const delays = spec.retryDelaysMs ?? HTTP_RETRY_DELAYS_MS;
  const wantsProgress = spec.progress === true || spec.onProgress !== undefined;
  let retries = 0;
  let authRetried = false;
  let recoveries = 0;
  let recovered = false;

  // Timeouts and aborts win over whatever error the SDK produced while unwinding them.
  const settle = (err: unknown): McpClientError => {
    if (deadline.expired) return new McpClientError('timeout', timeoutText(), { cause: err });
    // Aborted by a caller's signal or by the wheel closing (the client shutting down), with its reason.
    if (signal.aborted) {
      // A typed reason (the client closing) says more than "cancelled".
      const reason: unknown = signal.reason;
      return reason instanceof McpClientError ? reason : new McpClientError('cancelled', `${spec.label} was cancelled`, { cause: reason ?? err });
    }
    return hooks.classify(err);
  };

  try {
    for (;;) {
      try {
        if (signal.aborted) throw signal.reason;
        const options: AttemptOptions = {
          signal,
          timeout: deadline.remainingMs() + SDK_TIMER_SLACK_MS,
          maxTotalTimeout: maxTotal + SDK_TIMER_SLACK_MS,
          resetTimeoutOnProgress: wantsProgress,
          onprogress: wantsProgress
            ? (progress) => {
                deadline.extend();
                spec.onProgress?.(progress);
              }
            : undefined,
        };
        const value = await deadline.race(attempt(options));
        return { value, recovered };
      } catch (raw) {
        const err = settle(raw);
        if (err.code === 'timeout' || err.code === 'cancelled') throw err;

        if (spec.retryTransient && isTransient(err) && retries < delays.length) {
          const delay = delays[retries]!;
          retries += 1;
          // A retry that cannot finish inside the deadline is not a retry; report the failure.
          if (delay >= deadline.remainingMs()) throw err;
          await sleep(delay, signal).catch((e: unknown) => {
            throw settle(e);
          });
          continue;
        }
        // A 403 insufficient_scope the transport could not step up (no browser here) is fixed by a
        // login with wider scopes, which may have happened since the request was sent.
        if ((err.code === 'auth_required' || err.code === 'insufficient_scope') && !authRetried && hooks.adoptCredentials) {
          authRetried = true;
          if (await hooks.adoptCredentials(err, signal).catch(() => false)) continue;
          throw err;
        }
        // A 404 for an unknown session means the server never ran the request, so replaying it
        // (even tools/call) is safe. A second 404 fails the operation (as Codex), unless the new
        // session was shared and has since expired too: with many calls in flight against a server
        // that expires sessions every few requests, a call can meet more than one expiry.
        const again = recoveries === 0 || (recoveries < MAX_SESSION_RECOVERIES && hooks.mayRecoverAgain?.() === true);
        if (err.code === 'session_expired' && hooks.recoverSession && again) {
          recoveries += 1;
          const ours = await hooks.recoverSession(signal).catch((e: unknown) => {
            throw settle(e);
          });
          if (ours !== false) recovered = true;
          continue;
        }
        throw err;
      }
    }
  } finally {
    deadline.dispose();
  }
}

/**
 * `run` inside its client span. `_meta` gets the span's context from `run`'s argument; only HTTP
 * needs it as the current span too (the fetch wrapper's `traceparent` header): over stdio that
 * async context would cost each call more than the span itself (docs/operations.md). A tool result
 * with isError fails the span.
 */
export function inClientSpan<T extends { value: unknown }>(telemetry: Telemetry, span: SpanSpec, http: boolean, run: (trace: TraceContext | undefined) => Promise<T>): Promise<T> {
  return telemetry.span(
    span,
    (s) =>
      run(s.traceContext()).then((outcome) => {
        if ((outcome.value as { isError?: unknown } | undefined)?.isError === true) s.fail('tool_error');
        return outcome;
      }),
    { current: http },
  );
}
