// A `codex` or `codex-reply` call running as a task, in the host's table: its turn runs on without a
// request; the turn's progress is the task's status message (a question open to the client makes a
// 2025 task input_required); its approvals are the task's questions; cancelling interrupts the turn.
// A 2025 task whose tool reported an error has failed; a 2026-07-28 one has completed with it.
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { isTerminal, type TaskContext, type TaskState, type TaskWork } from '../mcp-host/index.js';
import { errorMessage } from '../util/index.js';

/** How long a task stays readable once ended, when its client asked for no ttl, and the most it may ask. */
const DEFAULT_TTL_MS = 60 * 60 * 1000;
const MAX_TTL_MS = 24 * 60 * 60 * 1000;
const POLL_INTERVAL_MS = 1_000;

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** What a running call can tell about itself. */
export interface TaskHandle {
  readonly taskId: string;
  /** Aborted by a cancel and when the task is forgotten. */
  readonly signal: AbortSignal;
  /** A new status message (the turn's progress); `waiting` while a question to the client is open. */
  update(message: string, waiting?: boolean): void;
}

export class CodexTaskWork implements TaskWork {
  readonly keepMs: number;
  readonly ended: Promise<void>;
  private status: Status = 'working';
  private statusMessage: string | undefined;
  private readonly createdAt = new Date().toISOString();
  private lastUpdatedAt = this.createdAt;
  private readonly controller = new AbortController();
  private readonly outcome: Promise<CallToolResult>;

  constructor(
    private readonly context: TaskContext,
    requestedTtl: unknown,
    run: (handle: TaskHandle) => Promise<CallToolResult>,
  ) {
    this.keepMs = typeof requestedTtl === 'number' && requestedTtl > 0 ? Math.min(requestedTtl, MAX_TTL_MS) : DEFAULT_TTL_MS;
    const signal = AbortSignal.any([this.controller.signal, context.signal]);
    this.outcome = run({ taskId: context.id, signal, update: (message, waiting = false) => this.set(waiting ? 'input_required' : 'working', message) }).then(
      (result) => {
        this.set(signal.aborted ? 'cancelled' : result.isError && context.era === 'legacy' ? 'failed' : 'completed');
        return result;
      },
      (err: unknown) => {
        this.set('failed');
        throw new ProtocolError(ProtocolErrorCode.InternalError, errorMessage(err));
      },
    );
    this.outcome.catch(() => {});
    this.ended = this.outcome.then(
      () => undefined,
      () => undefined,
    );
  }

  get initial(): TaskState {
    return this.view();
  }

  async state(): Promise<TaskState> {
    return this.view();
  }

  /** The call's result once the task ended (a failed call's result has isError). */
  async result(signal: AbortSignal): Promise<Record<string, unknown>> {
    return await new Promise<CallToolResult>((resolve, reject) => {
      const onAbort = () => reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'tasks/result cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.outcome.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** Interrupts the turn; the task is cancelled at once, its result follows when the turn stops. */
  async cancel(): Promise<void> {
    if (isTerminal(this.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${this.status}`);
    this.controller.abort();
    this.set('cancelled', 'cancelled by the client');
  }

  forgotten(): void {
    this.controller.abort();
  }

  private set(status: Status, message?: string): void {
    // Cancelled is final: the interrupted turn's own end does not turn it into completed or failed.
    if (isTerminal(this.status)) return;
    // A 2026-07-28 task has no input_required of its own: its open questions say so (the host).
    const next = status === 'input_required' && this.context.era === 'modern' ? 'working' : status;
    if (this.status === next && (message === undefined || message === this.statusMessage)) return;
    this.status = next;
    if (message !== undefined) this.statusMessage = message;
    this.lastUpdatedAt = new Date().toISOString();
    this.context.changed(this.view());
  }

  private view(): TaskState {
    const { status, statusMessage, createdAt, lastUpdatedAt } = this;
    return { status, ...(statusMessage !== undefined ? { statusMessage } : {}), ttl: this.keepMs, createdAt, lastUpdatedAt, pollInterval: POLL_INTERVAL_MS };
  }
}
