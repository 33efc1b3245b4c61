// `codex` and `codex-reply` as tasks for 2026-07-28 clients (the tasks extension, SEP-2663): a call
// from a request declaring the extension answers at once with a CreateTaskResult while its turn runs
// on in this process; tasks/get reports it (the turn's progress as status message, its approvals as
// `inputRequests`, the call's result inlined once it ended), tasks/update answers approvals,
// tasks/cancel interrupts the turn. A task belongs to the caller that created it (no session exists).
import { ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { TaskQuestions, TaskTable, type TaskIds } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';

/** How long a finished task stays readable. */
const TTL_MS = 60 * 60 * 1000;
const POLL_INTERVAL_MS = 1_000;

type Status = 'working' | 'completed' | 'failed' | 'cancelled';

interface ModernCodexTask {
  readonly id: string;
  readonly owner: string;
  status: Status;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly controller: AbortController;
  readonly questions: TaskQuestions;
  result?: CallToolResult;
  error?: { code: number; message: string };
}

/** What a running task can do: report progress, ask its client (the answer comes with tasks/update). */
export interface ModernTaskHandle {
  readonly taskId: string;
  readonly signal: AbortSignal;
  update(message: string): void;
  ask(params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

const isTerminal = (status: Status) => status !== 'working';

export class ModernCodexTasks {
  // Only finished tasks are forgotten for the bounds: running ones hold a turn, which the turn limit bounds.
  private readonly tasks = new TaskTable<ModernCodexTask>({
    evictable: (task) => isTerminal(task.status),
    forgotten: (task, why) => {
      task.controller.abort();
      task.questions.rejectAll(`the task was forgotten: ${why}`);
      this.logger.debug('2026-07-28 task forgotten', { why });
    },
  });

  constructor(
    private readonly logger: Logger,
    /** Mints the ids (over HTTP they name this replica, for the others to forward task requests here). */
    private readonly ids: TaskIds,
  ) {}

  /** Starts `run` as a task of `owner`; the CreateTaskResult to answer the call with. */
  async start(owner: string, run: (handle: ModernTaskHandle) => Promise<CallToolResult>): Promise<Record<string, unknown>> {
    const now = new Date().toISOString();
    const task: ModernCodexTask = { id: await this.ids.mint(), owner, status: 'working', createdAt: now, lastUpdatedAt: now, controller: new AbortController(), questions: new TaskQuestions('approval') };
    this.tasks.add(task);
    const handle: ModernTaskHandle = {
      taskId: task.id,
      signal: task.controller.signal,
      update: (message) => {
        if (isTerminal(task.status) || message === task.statusMessage) return;
        task.statusMessage = message;
        task.lastUpdatedAt = new Date().toISOString();
      },
      ask: (params, signal) => task.questions.ask({ method: 'elicitation/create', params }, signal),
    };
    // A tool that ran and reported an error (isError) is completed; failed is for the call that could not run.
    void run(handle).then(
      (result) => this.end(task, task.controller.signal.aborted ? 'cancelled' : 'completed', { result }),
      (err: unknown) => this.end(task, 'failed', { error: { code: ProtocolErrorCode.InternalError, message: errorMessage(err) } }),
    );
    return { resultType: 'task', ...view(task) };
  }

  /** The DetailedTask: its open approvals as `inputRequests`, its outcome once it ended. */
  get(owner: string, taskId: string): Record<string, unknown> {
    const task = this.tasks.owned(owner, taskId);
    const v = view(task);
    if (task.status === 'completed' && task.result) return { ...v, result: task.result };
    if (task.status === 'failed') return { ...v, error: task.error ?? { code: ProtocolErrorCode.InternalError, message: 'the call failed' } };
    if (task.questions.size === 0) return v;
    return { ...v, status: 'input_required', inputRequests: task.questions.inputRequests() };
  }

  /** The client's answers, each to the approval of its key (unknown keys are ignored). */
  update(owner: string, taskId: string, responses: Record<string, unknown>): void {
    this.tasks.owned(owner, taskId).questions.answer(responses);
  }

  /** Interrupts the turn; the task is cancelled at once. An ended task stays as it is (no error). */
  cancel(owner: string, taskId: string): void {
    const task = this.tasks.owned(owner, taskId);
    if (isTerminal(task.status)) return;
    task.controller.abort();
    this.end(task, 'cancelled', {}, 'cancelled by the client');
  }

  /** The server is shutting down: every running turn is interrupted, every task forgotten. */
  close(): void {
    this.tasks.close('the server is shutting down');
  }

  private end(task: ModernCodexTask, status: Status, outcome: Pick<ModernCodexTask, 'result' | 'error'>, message?: string): void {
    // Cancelled is final: the interrupted turn's own end does not turn it into completed.
    if (isTerminal(task.status)) return;
    task.status = status;
    Object.assign(task, outcome);
    if (message !== undefined) task.statusMessage = message;
    task.lastUpdatedAt = new Date().toISOString();
    task.questions.rejectAll(`the task ended (${status})`);
    this.tasks.expireIn(task, TTL_MS, 'its ttl passed');
  }
}

function view(task: ModernCodexTask): Record<string, unknown> {
  const { id: taskId, status, statusMessage, createdAt, lastUpdatedAt } = task;
  return { taskId, status, ...(statusMessage !== undefined ? { statusMessage } : {}), createdAt, lastUpdatedAt, ttlMs: TTL_MS, pollIntervalMs: POLL_INTERVAL_MS };
}
