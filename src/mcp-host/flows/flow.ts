// One request's work across the rounds of a multi-round-trip (2026-07-28) request: its open questions,
// its outcome, and the round it is attached to (notifications between rounds wait for the next one).
import { randomUUID } from 'node:crypto';
import type { InputRequest, ServerContext } from '@modelcontextprotocol/server';
import { errorMessage, type Logger } from '../../util/index.js';

export type Notification = Parameters<ServerContext['mcpReq']['notify']>[0];

/** Notifications kept while no round is attached (between rounds), oldest dropped first. */
const MAX_BUFFERED = 256;

export interface Question {
  key: string;
  request: InputRequest;
  resolve(answer: unknown): void;
  reject(err: Error): void;
}

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export class Flow<R> {
  readonly id = randomUUID();
  round = 0;
  readonly controller = new AbortController();
  readonly questions = new Map<string, Question>();
  outcome: Outcome<R> | undefined;
  /** The caller whose request it is, once it waits for a retry. */
  owner: string | undefined;
  private attached: ServerContext | undefined;
  private lastMeta: ServerContext['mcpReq']['_meta'];
  private readonly buffered: Notification[] = [];
  private readonly waiters = new Set<() => void>();
  private nextKey = 0;
  expiry: NodeJS.Timeout | undefined;

  /**
   * @param offered answers the first request already carried (the revision's ephemeral form: a
   *   request may come with inputResponses and no requestState); a question with one of these keys
   *   is answered at once.
   */
  constructor(
    private readonly logger: Logger,
    private readonly offered: Record<string, unknown> = {},
  ) {}

  attach(ctx: ServerContext): void {
    clearTimeout(this.expiry);
    this.attached = ctx;
    this.lastMeta = ctx.mcpReq._meta;
    for (const n of this.buffered.splice(0)) this.send(ctx, n);
  }

  detach(): void {
    this.attached = undefined;
  }

  get suspended(): boolean {
    return this.attached === undefined && this.outcome === undefined && this.questions.size > 0;
  }

  /** The current round's request `_meta` (its progressToken). */
  get meta(): ServerContext['mcpReq']['_meta'] {
    return this.attached?.mcpReq._meta ?? this.lastMeta;
  }

  async notify(n: Notification): Promise<void> {
    if (this.attached) {
      if (n.method !== 'notifications/progress') return this.send(this.attached, n);
      // Progress belongs to the round's own progressToken (each retry is a new request with its own).
      const token = this.attached.mcpReq._meta?.progressToken;
      if (token === undefined) return;
      return this.send(this.attached, { ...n, params: { ...n.params, progressToken: token } } as Notification);
    }
    // Progress between rounds is stale by the next one; anything else waits for it.
    if (n.method === 'notifications/progress') return;
    this.buffered.push(n);
    if (this.buffered.length > MAX_BUFFERED) this.buffered.shift();
  }

  ask(request: InputRequest, options: { key?: string; signal?: AbortSignal } = {}): Promise<unknown> {
    if (this.controller.signal.aborted) return Promise.reject(new Error(reasonOf(this.controller.signal)));
    if (options.key !== undefined && this.offered[options.key] !== undefined) {
      const answer = this.offered[options.key];
      delete this.offered[options.key];
      return Promise.resolve(answer);
    }
    let key = options.key ?? `input_${++this.nextKey}`;
    while (this.questions.has(key)) key = `${options.key ?? 'input'}_${++this.nextKey}`;
    return new Promise((resolve, reject) => {
      const question: Question = { key, request, resolve, reject };
      this.questions.set(key, question);
      options.signal?.addEventListener('abort', () => {
        if (this.questions.get(key) === question) this.questions.delete(key);
        reject(new Error(reasonOf(options.signal!)));
      });
      this.wake();
    });
  }

  settle(outcome: Outcome<R>): void {
    this.outcome = outcome;
    this.wake();
  }

  /** Resolves when a question arrives or the work ends. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  abort(why: string): void {
    clearTimeout(this.expiry);
    this.controller.abort(new Error(why));
    for (const q of this.questions.values()) q.reject(new Error(why));
    this.questions.clear();
    this.wake();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
    this.waiters.clear();
  }

  private send(ctx: ServerContext, n: Notification): Promise<void> {
    return ctx.mcpReq.notify(n).catch((err: unknown) => this.logger.debug('notification not delivered', { error: errorMessage(err) }));
  }
}

function reasonOf(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : 'cancelled';
}
