// `codex` and `codex-reply` as tasks for 2026-07-28 clients (the tasks extension, SEP-2663): a call
// from a request declaring the extension answers at once with a CreateTaskResult while its turn runs
// on in this process; tasks/get reports it (the turn's progress as status message, its approvals as
// `inputRequests`, the call's result inlined once it ended), tasks/update answers approvals,
// tasks/cancel interrupts the turn. A task belongs to the caller that created it (no session exists).
import { randomBytes } from 'node:crypto';
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type CallToolResult, type ClientCapabilities } from '@modelcontextprotocol/server';
import type { TaskIds } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a finished task stays readable. */
const TTL_MS = 60 * 60 * 1000;
const POLL_INTERVAL_MS = 1_000;
/** Tasks one caller holds; past it the oldest finished ones are forgotten. */
const MAX_TASKS_PER_CALLER = 1_000;

type Status = 'working' | 'completed' | 'failed' | 'cancelled';

interface Question {
  request: { method: string; params: Record<string, unknown> };
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

interface ModernCodexTask {
  readonly taskId: string;
  readonly owner: string;
  status: Status;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly controller: AbortController;
  readonly questions: Map<string, Question>;
  result?: CallToolResult;
  error?: { code: number; message: string };
  expiry?: NodeJS.Timeout;
}

/** What a running task can do: report progress, ask its client (the answer comes with tasks/update). */
export interface ModernTaskHandle {
  readonly taskId: string;
  readonly signal: AbortSignal;
  update(message: string): void;
  ask(params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

/** Whether a 2026-07-28 request's own capabilities declare the tasks extension. */
export function declaresTasks(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

/** -32021 naming the extension, for tasks/* from a request that did not declare it. */
export function extensionRequired(method: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities },
    `${method} needs the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare`,
  );
}

const isTerminal = (status: Status) => status !== 'working';

export class ModernCodexTasks {
  private readonly tasks = new Map<string, ModernCodexTask>();

  constructor(
    private readonly logger: Logger,
    /** Mints the ids (over HTTP they name this replica, for the others to forward task requests here). */
    private readonly ids: TaskIds,
  ) {}

  /** Starts `run` as a task of `owner`; the CreateTaskResult to answer the call with. */
  async start(owner: string, run: (handle: ModernTaskHandle) => Promise<CallToolResult>): Promise<Record<string, unknown>> {
    const now = new Date().toISOString();
    const task: ModernCodexTask = { taskId: await this.ids.mint(), owner, status: 'working', createdAt: now, lastUpdatedAt: now, controller: new AbortController(), questions: new Map() };
    this.tasks.set(task.taskId, task);
    this.bound(owner);
    const handle: ModernTaskHandle = {
      taskId: task.taskId,
      signal: task.controller.signal,
      update: (message) => {
        if (isTerminal(task.status) || message === task.statusMessage) return;
        task.statusMessage = message;
        task.lastUpdatedAt = new Date().toISOString();
      },
      ask: (params, signal) => this.ask(task, params, signal),
    };
    // A tool that ran and reported an error (isError) is completed; failed is for the call that could not run.
    void run(handle).then(
      (result) => this.end(task, task.controller.signal.aborted ? 'cancelled' : 'completed', { result }),
      (err: unknown) => this.end(task, 'failed', { error: { code: ProtocolErrorCode.InternalError, message: errorMessage(err) } }),
    );
    return { resultType: 'task', ...this.view(task) };
  }

  /** Tasks whose turn still runs. */
  get running(): number {
    let n = 0;
    for (const task of this.tasks.values()) if (!isTerminal(task.status)) n += 1;
    return n;
  }

  /** The DetailedTask: its open approvals as `inputRequests`, its outcome once it ended. */
  get(owner: string, taskId: string): Record<string, unknown> {
    const task = this.find(owner, taskId);
    const view = this.view(task);
    if (task.status === 'completed' && task.result) return { ...view, result: task.result };
    if (task.status === 'failed') return { ...view, error: task.error ?? { code: ProtocolErrorCode.InternalError, message: 'the call failed' } };
    if (task.questions.size === 0) return view;
    return { ...view, status: 'input_required', inputRequests: Object.fromEntries([...task.questions].map(([k, q]) => [k, q.request])) };
  }

  /** The client's answers, each to the approval of its key (unknown keys are ignored). */
  update(owner: string, taskId: string, responses: Record<string, unknown>): void {
    const task = this.find(owner, taskId);
    for (const [k, q] of task.questions) {
      if (responses[k] === undefined) continue;
      task.questions.delete(k);
      q.resolve(responses[k]);
    }
  }

  /** Interrupts the turn; the task is cancelled at once. An ended task stays as it is (no error). */
  cancel(owner: string, taskId: string): void {
    const task = this.find(owner, taskId);
    if (isTerminal(task.status)) return;
    task.controller.abort();
    this.end(task, 'cancelled', {}, 'cancelled by the client');
  }

  /** The server is shutting down: every running turn is interrupted, every task forgotten. */
  close(): void {
    for (const task of this.tasks.values()) {
      task.controller.abort();
      clearTimeout(task.expiry);
    }
    this.tasks.clear();
  }

  private ask(task: ModernCodexTask, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const key = `approval-${randomBytes(6).toString('base64url')}`;
      task.questions.set(key, { request: { method: 'elicitation/create', params }, resolve, reject });
      signal.addEventListener(
        'abort',
        () => {
          task.questions.delete(key);
          reject(new Error('the approval is no longer needed'));
        },
        { once: true },
      );
    });
  }

  private end(task: ModernCodexTask, status: Status, outcome: Pick<ModernCodexTask, 'result' | 'error'>, message?: string): void {
    // Cancelled is final: the interrupted turn's own end does not turn it into completed.
    if (isTerminal(task.status)) return;
    task.status = status;
    Object.assign(task, outcome);
    if (message !== undefined) task.statusMessage = message;
    task.lastUpdatedAt = new Date().toISOString();
    for (const q of task.questions.values()) q.reject(new Error(`the task ended (${status})`));
    task.questions.clear();
    task.expiry = setTimeout(() => this.tasks.delete(task.taskId), TTL_MS);
    task.expiry.unref();
  }

  /** The same -32602 for an unknown id as for another caller's. */
  private find(owner: string, taskId: string): ModernCodexTask {
    const task = this.tasks.get(taskId);
    if (!task || task.owner !== owner) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return task;
  }

  private view(task: ModernCodexTask): Record<string, unknown> {
    const { taskId, status, statusMessage, createdAt, lastUpdatedAt } = task;
    return { taskId, status, ...(statusMessage !== undefined ? { statusMessage } : {}), createdAt, lastUpdatedAt, ttlMs: TTL_MS, pollIntervalMs: POLL_INTERVAL_MS };
  }

  private bound(owner: string): void {
    const mine = [...this.tasks.values()].filter((t) => t.owner === owner);
    let excess = mine.length - MAX_TASKS_PER_CALLER;
    for (const task of mine) {
      if (excess <= 0) break;
      if (!isTerminal(task.status)) continue;
      clearTimeout(task.expiry);
      this.tasks.delete(task.taskId);
      excess -= 1;
      this.logger.debug('finished task forgotten: too many tasks of this caller', { taskId: task.taskId });
    }
  }
}
