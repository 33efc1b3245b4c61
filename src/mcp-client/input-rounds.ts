// The rounds of a 2026-07-28 request whose input requests its caller answers (a gateway's calling
// client) rather than the connection's handlers. The SDK's own driver answers them in its response
// funnel, where nothing says whose call asked; here the SDK hands each input-required result back
// (`allowInputRequired`), each embedded request goes through the registered handler chain (the SDK's
// validation included) with the call's own answerers, and the request is re-issued with the answers
// and its requestState exactly as the SDK's driver does, with the same round cap and error. The SDK
// client class here also gives tools/call its result validator once per era (result-validator.ts).
import { Client, isInputRequiredResult, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ClientContext, InputRequiredResult, Request, RequestMethod, RequestOptions as SdkRequestOptions, Result, ResultTypeMap, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { sleep } from '../util/index.js';
import { MAX_INPUT_ROUNDS } from './defaults.js';
import { resultValidator, type ResultCodec } from './result-validator.js';
import type { AttemptOptions } from './operation.js';
import type { InputHandlers } from './types.js';

const EMBEDDED_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);
/** The SDK driver's pause before re-issuing a leg that carried requestState only (nothing to answer). */
const STATE_ONLY_PACING_MS = 250;

/** The SDK's test for a schema argument (`isStandardSchema`, not exported). */
const isStandardSchema = (value: unknown): boolean =>
  (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value && typeof (value as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function';
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const unavailable = (member: string) => (): never => {
  throw new SdkError(SdkErrorCode.SendFailed, `ctx.mcpReq.${member} is not available while fulfilling an embedded input request: the request is fulfilled locally and has no related peer request`);
};

/** The SDK client, able to answer an embedded input request with one call's own answerers. */
export class SdkClient extends Client {
  /** A round's signal → the answerers of the call it belongs to (the handlers look them up by it). */
  private readonly callInputs = new WeakMap<AbortSignal, InputHandlers>();

  /**
   * A tools/call without a schema gets the era's result validator built once (result-validator.ts)
   * instead of per call; everything else, and a method the era lacks, goes the SDK's way unchanged.
   */
  override request<M extends RequestMethod>(request: { method: M; params?: Record<string, unknown> }, options?: SdkRequestOptions): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(request: Request, resultSchema: T, options?: SdkRequestOptions): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(request: Request, schemaOrOptions?: unknown, maybeOptions?: SdkRequestOptions): Promise<unknown> {
    const sdk = super.request as (r: Request, s?: unknown, o?: SdkRequestOptions) => Promise<unknown>;
    if (request.method !== 'tools/call' || isStandardSchema(schemaOrOptions)) return sdk.call(this, request, schemaOrOptions, maybeOptions);
    const validator = resultValidator(this._wireCodec() as unknown as ResultCodec, request.method);
    return validator ? sdk.call(this, request, validator, schemaOrOptions as SdkRequestOptions | undefined) : sdk.call(this, request, schemaOrOptions, maybeOptions);
  }

  /** The answerers of the call whose embedded request runs under `signal`; undefined: the connection's. */
  inputsOf(signal: AbortSignal): InputHandlers | undefined {
    return this.callInputs.get(signal);
  }

  /** One embedded request through the registered handler, as the SDK's driver dispatches it. */
  async answerEmbedded(key: string, entry: unknown, signal: AbortSignal, inputs: InputHandlers): Promise<Result> {
    if (!isPlainObject(entry) || typeof entry.method !== 'string') {
      throw new SdkError(SdkErrorCode.InvalidResult, `Invalid input request '${key}': each inputRequests entry must be an embedded request object with a method`, { key });
    }
    const method = entry.method;
    if (!EMBEDDED_METHODS.has(method)) {
      throw new SdkError(SdkErrorCode.InvalidResult, `Invalid input request '${key}': '${method}' is not an embedded request the 2026-07-28 revision defines (expected elicitation/create, sampling/createMessage, or roots/list)`, { key, method });
    }
    const handler = this._getRequestHandler(method);
    if (!handler) {
      throw new SdkError(
        SdkErrorCode.CapabilityNotSupported,
        `Cannot fulfil input request '${key}': no handler is registered for '${method}' on this client. Declare the corresponding capability and register a handler, or handle input_required results manually.`,
        { key, method },
      );
    }
    const params = isPlainObject(entry.params) ? entry.params : undefined;
    this.callInputs.set(signal, inputs);
    const ctx = {
      sessionId: this.transport?.sessionId,
      mcpReq: { id: key, method, _meta: params?._meta, requestState: () => undefined, signal, send: unavailable('send'), notify: unavailable('notify') },
    } as unknown as ClientContext;
    return handler({ jsonrpc: '2.0', id: key, method, ...(params !== undefined ? { params } : {}) }, this.buildContext(ctx));
  }
}

/** One leg of the request: the SDK call with these params, handing an input-required result back. */
export type InputLeg<R> = (params: Record<string, unknown>, options: SdkRequestOptions) => Promise<R | InputRequiredResult>;

/**
 * Issues `method` and follows its input-required results to the complete one, each round's embedded
 * requests answered by `inputs` (concurrently; the first failure ends the round and the request), at
 * most MAX_INPUT_ROUNDS rounds.
 */
export async function runInputRounds<R>(client: SdkClient, method: string, params: Record<string, unknown>, attempt: AttemptOptions, inputs: InputHandlers, leg: InputLeg<R>): Promise<R> {
  const startedAt = Date.now();
  let result = await leg(params, { ...attempt, allowInputRequired: true });
  for (let round = 1; isInputRequiredResult(result); round++) {
    if (round > MAX_INPUT_ROUNDS) {
      throw new SdkError(SdkErrorCode.InputRequiredRoundsExceeded, `Multi-round-trip request '${method}' still required input after ${MAX_INPUT_ROUNDS} rounds (inputRequired.maxRounds)`, {
        rounds: MAX_INPUT_ROUNDS,
        lastResult: { inputRequests: result.inputRequests, ...(result.requestState !== undefined ? { requestState: result.requestState } : {}) },
      });
    }
    attempt.onprogress?.({ progress: round, message: `Fulfilling input required by '${method}' (round ${round})` });
    const entries = Object.entries(result.inputRequests ?? {});
    const responses = entries.length > 0 ? await answerRound(client, entries, attempt.signal, inputs) : undefined;
    if (entries.length === 0) await sleep(STATE_ONLY_PACING_MS, attempt.signal);
    const remaining = attempt.maxTotalTimeout - (Date.now() - startedAt);
    if (remaining <= 0) throw new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: attempt.maxTotalTimeout, totalElapsed: Date.now() - startedAt });
    const retry = {
      ...params,
      ...(responses && Object.keys(responses).length > 0 ? { inputResponses: responses } : {}),
      ...(result.requestState !== undefined ? { requestState: result.requestState } : {}),
    };
    result = await leg(retry, { ...attempt, maxTotalTimeout: remaining, allowInputRequired: true });
  }
  return result;
}

/** One round's embedded requests, answered together under one signal that the first failure aborts. */
async function answerRound(client: SdkClient, entries: [string, unknown][], outer: AbortSignal, inputs: InputHandlers): Promise<Record<string, Result>> {
  const round = new AbortController();
  const onOuterAbort = () => round.abort(outer.reason);
  outer.addEventListener('abort', onOuterAbort, { once: true });
  if (outer.aborted) round.abort(outer.reason);
  try {
    const answered = await Promise.all(
      entries.map(async ([key, entry]) => {
        try {
          return [key, await client.answerEmbedded(key, entry, round.signal, inputs)] as const;
        } catch (err) {
          round.abort(err);
          throw err;
        }
      }),
    );
    return Object.fromEntries(answered);
  } finally {
    outer.removeEventListener('abort', onOuterAbort);
  }
}
