// Multi-round-trip serving (2026-07-28) of work that asks its client for input while it runs. The
// work keeps running in this process between rounds: a question it asks ends the current round with
// an input-required result (questions asked together go out together), and the client's retry,
// carrying the answers and the sealed requestState, resumes it. The state is bound to the caller,
// the method and what the request names (a tool, prompt or resource), so no one else can replay it.
// Waiting work is bounded in number and in how long it waits for the retry.
import { inputRequired, type InputRequest, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from '../../util/index.js';
import { callerOf } from '../access/caller.js';
import { Flow, type Notification } from './flow.js';
import { DEFAULT_REQUEST_STATE_TTL_MS, randomRequestStateKey, refused, RequestStateSealer, type RequestStateKey } from './request-state.js';

/** How the work asks its client: the answer is the client's bare result for the request. */
export interface FlowChannel {
  ask(request: InputRequest, options?: { key?: string; signal?: AbortSignal }): Promise<unknown>;
  /** Ends the request with `error` now (e.g. it needs input the client cannot give); the work is cancelled. */
  fail(error: Error): void;
  /** The work is between rounds: its questions went out and it waits for the client's retry. */
  readonly suspended: boolean;
}

export interface InputFlowsOptions {
  logger: Logger;
  /** The requestState HMAC key; default: random per process. */
  key?: RequestStateKey;
  /** How long work waits for the client's retry (and how long a requestState is valid). */
  ttlMs?: number;
  /** Work waiting for a retry at once; past it the oldest of the caller holding the most is given up. */
  maxWaiting?: number;
}

export const DEFAULT_MAX_WAITING = 1024;
const BOUND_ELSEWHERE = 'it was minted for another request';

function bound(payload: Payload, binding: StateBinding): boolean {
  return payload.caller === binding.caller && payload.subject === binding.subject;
}
/** Questions the work asks together (a batch of an upstream's input requests) go out in one result. */
const GATHER_MS = 5;

interface Payload {
  flow: string;
  round: number;
  /** Who the request was from (`issuer#subject`, or `anonymous`) and what it names: only they may retry it. */
  caller: string;
  subject: string;
  /** The replica whose process holds the waiting work (its internal origin), when it said so. */
  holder?: string;
}

/** Whose request, for the state it is sealed into: the authenticated caller, or one identity for all callers of an unauthenticated endpoint. */
export function stateCaller(ctx: Pick<ServerContext, 'http'>): string {
  return callerOf(ctx.http?.authInfo)?.key ?? 'anonymous';
}

/** What a retry must repeat: its caller and the name its request names. */
export interface StateBinding {
  caller: string;
  subject: string;
}

export class InputFlows {
  private readonly waiting = new Map<string, Flow<unknown>>();
  private readonly sealer: RequestStateSealer<Payload>;
  private readonly ttlMs: number;
  private readonly maxWaiting: number;
  /** Each caller's waiting work, oldest first. */
  private readonly byCaller = new Map<string, Set<string>>();
  private closed = false;
  /** This process's internal origin, once listening: sealed into state so another replica can forward the retry here. */
  private self: string | undefined;

  constructor(private readonly options: InputFlowsOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
    this.sealer = new RequestStateSealer<Payload>(options.key ?? randomRequestStateKey(), this.ttlMs);
  }

  /** Where this process is reached by other replicas (e.g. `http://127.0.0.1:8123`). */
  listeningAt(origin: string): void {
    this.self = origin;
  }

  /**
   * The replica holding the work a retry's requestState belongs to, when it is not this one; undefined
   * for state held here, state naming no holder, or state that does not open (the round refuses it).
   */
  async holderElsewhere(state: string, method: string, binding: StateBinding): Promise<string | undefined> {
    const payload = await this.sealer.open(state, { mcpReq: { method } } as ServerContext).catch(() => undefined);
    if (!payload || !bound(payload, binding)) return undefined;
    return payload.holder !== undefined && payload.holder !== this.self ? payload.holder : undefined;
  }

  /** Work waiting for its client's retry now. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * One round of a request: a first request starts `work` (with a context whose signal, progress
   * token and notifications follow the rounds); a retry carrying requestState hands its answers to
   * the work it belongs to. Either way: the work's result, or an input-required result. `subject`:
   * what the request names (its tool, prompt or resource URI), which a retry must name again.
   */
  async round<R>(ctx: ServerContext, subject: string, work: (flowCtx: ServerContext, channel: FlowChannel) => Promise<R>): Promise<R | InputRequiredResult> {
    const state = ctx.mcpReq.requestState<unknown>();
    const binding: StateBinding = { caller: stateCaller(ctx), subject };
    let flow: Flow<R>;
    if (typeof state === 'string') {
      const payload = await this.sealer.open(state, ctx);
      // Sealed for another caller or another tool: refused as state minted for another request (which it is).
      if (!bound(payload, binding)) throw refused(BOUND_ELSEWHERE);
      const found = this.waiting.get(payload.flow) as Flow<R> | undefined;
      if (!found) throw refused(`the request it belongs to is no longer waiting here (it ended, waited more than ${Math.round(this.ttlMs / 1000)} s for this retry, or the server restarted)`);
      if (payload.round !== found.round) throw refused('it belongs to an earlier round of this request');
      flow = found;
      this.answer(flow, ctx.mcpReq.inputResponses ?? {});
    } else {
      flow = this.start(ctx, work);
    }
    return this.serveRound(flow, ctx, binding);
  }

  /** Gives up every waiting request (their work is cancelled, their questions fail). */
  close(): void {
    this.closed = true;
    for (const flow of this.waiting.values()) flow.abort('the server is shutting down');
    this.waiting.clear();
    this.byCaller.clear();
  }

  private start<R>(ctx: ServerContext, work: (flowCtx: ServerContext, channel: FlowChannel) => Promise<R>): Flow<R> {
    const flow = new Flow<R>(this.options.logger, { ...ctx.mcpReq.inputResponses });
    flow.attach(ctx);
    const flowCtx: ServerContext = { ...ctx, mcpReq: new FlowMcpReq(ctx.mcpReq, flow) as unknown as ServerContext['mcpReq'] };
    void (async () => work(flowCtx, new RoundChannel(flow)))().then(
      (value) => flow.settle({ ok: true, value }),
      (error: unknown) => flow.settle({ ok: false, error }),
    );
    return flow;
  }

  private answer(flow: Flow<unknown>, responses: Record<string, unknown>): void {
    for (const [key, q] of flow.questions) {
      if (responses[key] === undefined) continue;
      flow.questions.delete(key);
      q.resolve(responses[key]);
    }
  }

  private async serveRound<R>(flow: Flow<R>, ctx: ServerContext, binding: StateBinding): Promise<R | InputRequiredResult> {
    flow.attach(ctx);
    // The client gave up on this round (cancelled it, or its stream broke: it re-issues the request).
    const onAbort = () => this.end(flow, 'the client cancelled the request');
    ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (flow.outcome) {
          this.end(flow);
          if (flow.outcome.ok) return flow.outcome.value;
          throw flow.outcome.error;
        }
        if (ctx.mcpReq.signal.aborted) throw new Error('cancelled');
        if (flow.questions.size > 0) {
          await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
          if (flow.outcome || flow.questions.size === 0) continue;
          return await this.suspend(flow, ctx, binding);
        }
        await flow.changed();
      }
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', onAbort);
      flow.detach();
    }
  }

  /** Ends the round with the work's open questions; the work waits for the retry. */
  private async suspend<R>(flow: Flow<R>, ctx: ServerContext, binding: StateBinding): Promise<InputRequiredResult> {
    if (this.closed) throw new Error('the server is shutting down');
    flow.round += 1;
    const inputRequests = Object.fromEntries([...flow.questions.values()].map((q) => [q.key, q.request]));
    const requestState = await this.sealer.seal({ flow: flow.id, round: flow.round, ...binding, ...(this.self ? { holder: this.self } : {}) }, ctx);
    if (!this.waiting.has(flow.id)) {
      this.makeRoom(binding.caller);
      this.waiting.set(flow.id, flow as Flow<unknown>);
      const mine = this.byCaller.get(binding.caller) ?? new Set<string>();
      mine.add(flow.id);
      this.byCaller.set(binding.caller, mine);
      flow.owner = binding.caller;
    }
    clearTimeout(flow.expiry);
    flow.expiry = setTimeout(() => this.end(flow, `the client did not retry the request within ${Math.round(this.ttlMs / 1000)} s`), this.ttlMs);
    flow.expiry.unref();
    return inputRequired({ inputRequests, requestState });
  }

  /**
   * Room for one more waiting request of `caller`: past the bound the oldest of the caller holding the
   * most (itself, when it is that caller) is given up, so one caller's many cannot push out another's.
   */
  private makeRoom(caller: string): void {
    while (this.waiting.size >= this.maxWaiting) {
      let heaviest = this.byCaller.get(caller);
      for (const ids of this.byCaller.values()) if (!heaviest || ids.size > heaviest.size) heaviest = ids;
      this.end(this.waiting.get(heaviest!.values().next().value!)!, `more than ${this.maxWaiting} requests were waiting for their clients' input; the oldest of the caller with the most was given up`);
    }
  }

  private end(flow: Flow<unknown>, abortWhy?: string): void {
    clearTimeout(flow.expiry);
    this.waiting.delete(flow.id);
    if (flow.owner !== undefined) {
      const mine = this.byCaller.get(flow.owner);
      mine?.delete(flow.id);
      if (mine?.size === 0) this.byCaller.delete(flow.owner);
    }
    if (abortWhy !== undefined && !flow.outcome) {
      this.options.logger.debug('request waiting for input given up', { why: abortWhy });
      flow.abort(abortWhy);
    }
  }
}

// The two per-request objects below are classes, their getters on the class: a per-request object
// used as a prototype (Object.create over the request's mcpReq) or given its own getter makes V8
// keep every request's objects through young collections (docs/performance.md, "Issue 37, ninth round").

/**
 * The request as the work sees it: the first round's, except that its signal is the flow's (the work
 * outlives the round) and its notifications and `_meta` (the progress token) are the current round's.
 */
class FlowMcpReq {
  readonly signal: AbortSignal;

  constructor(
    round: ServerContext['mcpReq'],
    private readonly flow: Flow<unknown>,
  ) {
    const { _meta: _ignoredMeta, signal: _ignoredSignal, notify: _ignoredNotify, ...rest } = round;
    Object.assign(this, rest);
    this.signal = flow.controller.signal;
  }

  /** An own function, as the SDK's is, so that it may be called detached. */
  readonly notify = (n: Notification): Promise<void> => this.flow.notify(n);

  get _meta(): ServerContext['mcpReq']['_meta'] {
    return this.flow.meta;
  }
}

/** How the work asks its client, and ends the request early. */
class RoundChannel implements FlowChannel {
  constructor(private readonly flow: Flow<unknown>) {}

  get suspended(): boolean {
    return this.flow.suspended;
  }

  ask(request: InputRequest, options?: { key?: string; signal?: AbortSignal }): Promise<unknown> {
    return this.flow.ask(request, options);
  }

  fail(error: Error): void {
    if (this.flow.outcome) return;
    this.flow.settle({ ok: false, error });
    this.flow.abort(error.message);
  }
}
