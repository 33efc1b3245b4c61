// The host's one task table, for every product and both revisions: a tools/call that asks for a task
// gets one here (its work the product's), under an opaque id, owned by the 2025 session or the
// 2026-07-28 caller that created it, bounded, forgotten in time; and tasks/* are answered from here.
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type CallToolRequestParams, type CallToolResult, type ClientCapabilities, type InputRequest } from '@modelcontextprotocol/server';
import { legacyRefusal } from './client-capabilities.js';
import type { CallSlot } from '../access/call-slot.js';
import { errorMessage, type Logger } from '../../util/index.js';
import { TaskQuestions } from '../flows/tasks-extension.js';
import type { TaskIds } from '../flows/task-ids.js';
import { MAX_KEEP_MS, TaskTable, type TableTask } from '../flows/task-table.js';
import { createdTaskResult } from '../rpc/task-server.js';
import type { Era, ProductTasks, Req, Session } from './product.js';
import { isTerminal, type TaskContext, type TaskState, type TaskWork } from './task-work.js';

const DEFAULT_KEEP_MS = 60 * 60 * 1000;

export interface HostTask extends TableTask {
  readonly era: Era;
  readonly work: TaskWork;
  readonly session: Session | undefined;
  /** What the request that created it declared it can be asked. */
  readonly capabilities: ClientCapabilities | undefined;
  readonly questions: TaskQuestions;
  readonly controller: AbortController;
  readonly createdAt: string;
  readonly keepMs: number;
  /** The status last known (from a state read or a change the work reported). */
  status: string;
  /** tasks/result requests of this task in flight (2025): a question asked meanwhile rides the newest one. */
  readonly waiting: Req[];
  /** Gives back the caller's concurrent-call slot the task holds (HTTP with concurrent_calls), once it ended. */
  releaseSlot: (() => void) | undefined;
}

/** The owner of a request's task: its 2025 session, or its 2026-07-28 caller. */
export function ownerOf(req: Pick<Req, 'session' | 'caller'>): string {
  return req.session ? `session:${req.session.id}` : (req.caller?.key ?? 'anonymous');
}

function isWork(value: TaskWork | CallToolResult): value is TaskWork {
  return typeof (value as Partial<TaskWork>).state === 'function';
}

export class HostTasks {
  private readonly table: TaskTable<HostTask>;

  constructor(
    private readonly ids: TaskIds,
    private readonly logger: Logger,
  ) {
    this.table = new TaskTable<HostTask>({
      forgotten: (task, why) => {
        task.releaseSlot?.();
        task.controller.abort(new Error(why));
        task.questions.rejectAll(`the task was forgotten: ${why}`);
        task.work.forgotten?.(why);
        this.logger.debug('task forgotten', { why });
      },
    });
  }

  /** Tasks whose work still runs (a session holding one is busy). */
  running(owner: string): number {
    return this.table.ownedBy(owner).filter((t) => !isTerminal(t.status)).length;
  }

  /**
   * A tools/call that asked for a task: the product's work under a new id (its CreateTaskResult), the
   * result when the product ran it at once, or undefined to run it as an ordinary call.
   */
  async start(tasks: ProductTasks, params: CallToolRequestParams, req: Req, slot?: CallSlot): Promise<CallToolResult | undefined> {
    const id = await this.ids.mint();
    const controller = new AbortController();
    const holder: { task?: HostTask } = {};
    const context: TaskContext = {
      id,
      era: req.era,
      signal: controller.signal,
      changed: (state) => this.changed(holder.task, state),
      settled: () => holder.task?.questions.wake(),
      ask: (request, options) => this.ask(holder, request, options),
    };
    const started = await tasks.start(params, req, context);
    if (started === undefined || !isWork(started)) return started;
    const work = started;
    const initial = work.initial ?? (await work.state(req.signal).catch(() => ({ status: 'working' }) as TaskState));
    const task: HostTask = {
      id,
      owner: ownerOf(req),
      era: req.era,
      work,
      session: req.session,
      capabilities: req.clientCapabilities,
      questions: new TaskQuestions(req.era === 'modern' ? 'input' : 'ask'),
      controller,
      createdAt: typeof initial.createdAt === 'string' ? initial.createdAt : new Date().toISOString(),
      // What a timer can hold: the table forgets it then, so that is what its client is told.
      keepMs: Math.min(work.keepMs ?? DEFAULT_KEEP_MS, MAX_KEEP_MS),
      status: initial.status,
      waiting: [],
      // The request's concurrent-call slot stays taken while the task runs.
      releaseSlot: slot?.keep(),
    };
    holder.task = task;
    this.table.add(task);
    this.noteStatus(task, initial.status);
    this.table.expireIn(task, task.keepMs, 'its ttl passed');
    // Work that knows its end is kept for its whole time from there.
    void work.ended?.then(() => {
      this.noteStatus(task, 'completed');
      if (this.table.holds(task)) this.table.expireIn(task, task.keepMs, 'its ttl passed');
    }).catch(() => {});
    if (req.era === 'modern') return createdTaskResult({ resultType: 'task', ...this.modernFields(task, initial) });
    return createdTaskResult({ task: { ...initial, taskId: id } });
  }

  /** The task `id` of the requester; the same -32602 for an unknown id as for another owner's. */
  owned(req: Pick<Req, 'session' | 'caller'>, id: unknown): HostTask {
    return this.table.owned(ownerOf(req), id);
  }

  ownedBy(req: Pick<Req, 'session' | 'caller'>): HostTask[] {
    return this.table.ownedBy(ownerOf(req));
  }

  /** Its state now, as its owner sees it (the host's id); a work that no longer knows it is forgotten. */
  async state(task: HostTask, signal: AbortSignal): Promise<TaskState> {
    let state: TaskState;
    try {
      state = await task.work.state(signal);
    } catch (err) {
      if (err instanceof ProtocolError && err.code === ProtocolErrorCode.InvalidParams) this.forget(task, `its work no longer knows it: ${errorMessage(err)}`);
      throw err;
    }
    this.noteStatus(task, state.status);
    return { ...state, taskId: task.id };
  }

  /** The call's result once ended (2025 tasks/result), naming the task by the host's id. */
  async result(task: HostTask, req: Req): Promise<Record<string, unknown>> {
    task.waiting.push(req);
    try {
      const result = await task.work.result(req.signal);
      const meta = { ...(result._meta as Record<string, unknown> | undefined), [RELATED_TASK_META_KEY]: { taskId: task.id } };
      return { ...result, _meta: meta };
    } finally {
      task.waiting.splice(task.waiting.indexOf(req), 1);
    }
  }

  /** The 2026-07-28 Task fields from a 2025-shaped state. */
  modernFields(task: HostTask, state: TaskState): Record<string, unknown> {
    const ms = (v: unknown) => (typeof v === 'number' && v > 0 ? Math.max(1, Math.round(v)) : undefined);
    const pollIntervalMs = ms(state.pollInterval);
    return {
      taskId: task.id,
      status: state.status === 'input_required' ? 'working' : state.status,
      ...(typeof state.statusMessage === 'string' ? { statusMessage: state.statusMessage } : {}),
      createdAt: typeof state.createdAt === 'string' ? state.createdAt : task.createdAt,
      lastUpdatedAt: typeof state.lastUpdatedAt === 'string' ? state.lastUpdatedAt : typeof state.createdAt === 'string' ? state.createdAt : task.createdAt,
      // What the host keeps it for: it does forget it, so never null.
      ttlMs: task.keepMs,
      ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    };
  }

  forget(task: HostTask, why: string): void {
    this.table.forget(task, why);
  }

  /** The status last known; an ended task gives its call slot back. */
  private noteStatus(task: HostTask, status: string): void {
    if (!isTerminal(task.status)) task.status = status;
    if (isTerminal(status)) {
      task.releaseSlot?.();
      task.releaseSlot = undefined;
    }
  }

  /** A 2025 session ended: its tasks go with it (running ones are stopped). */
  sessionClosed(session: Session): void {
    this.table.forgetOwner(`session:${session.id}`, 'its session ended');
  }

  close(): void {
    this.table.close('the server is shutting down');
  }

  /** A status change the work reported: a 2025 session hears it (a 2026-07-28 client reads it with tasks/get). */
  private changed(task: HostTask | undefined, state: TaskState): void {
    if (!task) return;
    this.noteStatus(task, state.status);
    task.session?.notify({ method: 'notifications/tasks/status', params: { ...state, taskId: task.id } });
  }

  /** A question of the work: on a 2025 tasks/result waiting for it (else the session's own stream), or the task's open questions (2026-07-28). */
  private ask(holder: { task?: HostTask }, request: InputRequest, options: { key?: string; signal: AbortSignal }): Promise<unknown> {
    const task = holder.task;
    if (!task) return Promise.reject(new Error('the task is not created yet'));
    // Refused, as its client's SDK would, when that client cannot take it.
    const refusal = legacyRefusal(request, task.capabilities);
    if (refusal) return Promise.reject(refusal);
    if (task.era === 'modern') return task.questions.ask(request, options.signal, options.key);
    const params = { ...(request.params as Record<string, unknown>), _meta: { ...((request.params as { _meta?: Record<string, unknown> })._meta ?? {}), [RELATED_TASK_META_KEY]: { taskId: task.id } } };
    const waiting = task.waiting.at(-1);
    if (waiting) return waiting.ask({ ...request, params } as InputRequest, { signal: options.signal, raw: true });
    if (!task.session) return Promise.reject(new Error('the task has no session to ask'));
    return task.session.request({ ...request, params } as InputRequest & { params: Record<string, unknown> }, options.signal);
  }
}
