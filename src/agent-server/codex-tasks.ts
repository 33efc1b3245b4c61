// `codex` and `codex-reply` calls run as tasks (2025-11-25 tasks): a task-augmented call answers at
// once with a task while its turn runs on; tasks/get reports its status (the turn's progress as the
// status message), tasks/result waits for the call's result, tasks/cancel interrupts the turn. Tasks
// belong to the one connection that created them and end with it.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from '../util/index.js';

/** What the agent server declares: tasks for tools/call, listing and cancelling them. */
export const CODEX_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
/** How long a finished task stays readable when the client asked for no ttl, and the most it may ask. */
const DEFAULT_TTL_MS = 60 * 60 * 1000;
const MAX_TTL_MS = 24 * 60 * 60 * 1000;
const POLL_INTERVAL_MS = 1_000;
/** Tasks one connection holds; past it the oldest finished ones are forgotten. */
const MAX_TASKS = 1_000;

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface CodexTask {
  taskId: string;
  status: Status;
  statusMessage?: string;
  ttl: number;
  createdAt: string;
  lastUpdatedAt: string;
  controller: AbortController;
  result: Promise<CallToolResult>;
  expiry?: ReturnType<typeof setTimeout>;
}

/** What a running task can tell about itself. */
export interface TaskHandle {
  readonly taskId: string;
  /** Aborted by tasks/cancel and when the connection ends. */
  readonly signal: AbortSignal;
  /** A new status message (the turn's progress); `waiting` while a question to the client is open. */
  update(message: string, waiting?: boolean): void;
}

export class CodexTasks {
  private readonly tasks = new Map<string, CodexTask>();

  constructor(
    /** Sends notifications/tasks/status to the connection's client. */
    private readonly notify: (params: Record<string, unknown>) => void,
    private readonly logger: Logger,
  ) {}

  /** Starts `run` as a task; the CreateTaskResult to answer the call with. */
  start(requested: unknown, run: (task: TaskHandle) => Promise<CallToolResult>): Record<string, unknown> {
    const ttlAsked = (requested as { ttl?: unknown } | undefined)?.ttl;
    const now = new Date().toISOString();
    const task: CodexTask = {
      taskId: randomUUID(),
      status: 'working',
      ttl: typeof ttlAsked === 'number' && ttlAsked > 0 ? Math.min(ttlAsked, MAX_TTL_MS) : DEFAULT_TTL_MS,
      createdAt: now,
      lastUpdatedAt: now,
      controller: new AbortController(),
      result: Promise.resolve({ content: [] }),
    };
    this.tasks.set(task.taskId, task);
    this.bound();
    const handle: TaskHandle = {
      taskId: task.taskId,
      signal: task.controller.signal,
      update: (message, waiting = false) => this.set(task, waiting ? 'input_required' : 'working', message),
    };
    task.result = run(handle).then(
      (result) => {
        this.set(task, task.controller.signal.aborted ? 'cancelled' : result.isError ? 'failed' : 'completed');
        return result;
      },
      (err: unknown) => {
        this.set(task, 'failed');
        throw err;
      },
    );
    task.result.catch(() => {});
    return { task: this.view(task) };
  }

  /** Tasks whose turn still runs (an HTTP session holding one is busy: neither idle nor evicted). */
  get running(): number {
    let n = 0;
    for (const task of this.tasks.values()) if (!isTerminal(task.status)) n += 1;
    return n;
  }

  get(taskId: string): Record<string, unknown> {
    return this.view(this.find(taskId));
  }

  /** The call's result once the task has ended (a failed call's result has isError). */
  async result(taskId: string, signal: AbortSignal): Promise<CallToolResult> {
    const task = this.find(taskId);
    const result = await Promise.race([
      task.result,
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'tasks/result cancelled')), { once: true })),
    ]);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }

  list(): Record<string, unknown>[] {
    return [...this.tasks.values()].map((t) => this.view(t));
  }

  /** Interrupts the task's turn; the task is cancelled at once, its result follows when the turn stops. */
  cancel(taskId: string): Record<string, unknown> {
    const task = this.find(taskId);
    if (isTerminal(task.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${task.status}`);
    task.controller.abort();
    this.set(task, 'cancelled', 'cancelled by the client');
    return this.view(task);
  }

  /** The connection ended: every running turn is interrupted, every task forgotten. */
  closeAll(): void {
    for (const task of this.tasks.values()) {
      task.controller.abort();
      if (task.expiry) clearTimeout(task.expiry);
    }
    this.tasks.clear();
  }

  private find(taskId: string): CodexTask {
    const task = this.tasks.get(taskId);
    if (!task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return task;
  }

  private set(task: CodexTask, status: Status, message?: string): void {
    // Cancelled is final: the interrupted turn's own end does not turn it into completed or failed.
    if (isTerminal(task.status)) return;
    if (task.status === status && (message === undefined || message === task.statusMessage)) return;
    task.status = status;
    if (message !== undefined) task.statusMessage = message;
    task.lastUpdatedAt = new Date().toISOString();
    this.notify(this.view(task));
    if (isTerminal(status)) {
      task.expiry = setTimeout(() => this.tasks.delete(task.taskId), task.ttl);
      task.expiry.unref?.();
    }
  }

  private view(task: CodexTask): Record<string, unknown> {
    const { taskId, status, statusMessage, ttl, createdAt, lastUpdatedAt } = task;
    return { taskId, status, ...(statusMessage !== undefined ? { statusMessage } : {}), ttl, createdAt, lastUpdatedAt, pollInterval: POLL_INTERVAL_MS };
  }

  private bound(): void {
    if (this.tasks.size <= MAX_TASKS) return;
    for (const task of this.tasks.values()) {
      if (this.tasks.size <= MAX_TASKS) break;
      if (!isTerminal(task.status)) continue;
      if (task.expiry) clearTimeout(task.expiry);
      this.tasks.delete(task.taskId);
      this.logger.debug('finished task forgotten: too many tasks on this connection', { taskId: task.taskId });
    }
  }
}

function isTerminal(status: Status): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
