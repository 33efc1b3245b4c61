// Tasks for 2026-07-28 clients (the tasks extension, SEP-2663) bridged onto a 2025 upstream's tasks:
// the gateway keeps, per task, its own unguessable id, the caller it belongs to, the upstream's
// outcome (fetched with tasks/result as soon as the task exists) and the questions the upstream asked
// meanwhile, which the client reads on tasks/get (`inputRequests`) and answers with tasks/update.
import { RELATED_TASK_META_KEY, type ClientCapabilities } from '@modelcontextprotocol/server';
import type { PassThroughResult } from '../mcp-client/index.js';
import type { McpConnectionManager } from '../mcp/index.js';
import { MAX_KEEP_MS, TaskIds, TaskQuestions, TaskTable, type InputQuestion } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import type { Notification, RelayClient } from './relay.js';
import { cancelUpstreamTask } from './upstream-tasks.js';

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** How long a task is remembered when its upstream gave it no ttl. */
const DEFAULT_KEEP_MS = 24 * 60 * 60 * 1000;

/** A JSON-RPC error as a failed task inlines it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

export interface ModernTask {
  readonly id: string;
  /** Who may see it: the caller's identity (`issuer#subject` with [server_auth]; else one identity for all). */
  readonly owner: string;
  readonly server: string;
  readonly upstreamId: string;
  /** The capabilities of the request that created it: what its upstream may ask. */
  readonly capabilities: ClientCapabilities | undefined;
  /** How long it is kept from its creation: its upstream's ttl, or the gateway's own when none or longer than a timer holds (its `ttlMs`). */
  readonly keepMs: number;
  readonly questions: TaskQuestions;
  /** Settles when the upstream's tasks/result answered (the outcome is then set). */
  fetched?: Promise<void>;
  outcome?: { result: PassThroughResult } | { error: TaskError };
  readonly controller: AbortController;
}

/** The upstream's words without the 2025 related-task marker (the task id is the gateway's own now). */
export function withoutRelatedTask<T extends Record<string, unknown>>(value: T): T {
  const meta = value._meta as Record<string, unknown> | undefined;
  if (!meta || !(RELATED_TASK_META_KEY in meta)) return value;
  const { [RELATED_TASK_META_KEY]: _gone, ...rest } = meta;
  return { ...value, ...(Object.keys(rest).length > 0 ? { _meta: rest } : { _meta: undefined }) };
}

export class ModernTasks {
  private readonly table: TaskTable<ModernTask>;
  private readonly byUpstream = new Map<string, ModernTask>();

  /** Mints the ids; the HTTP leg gives it the key replicas share (its ids then name this replica). */
  ids = new TaskIds(undefined);

  constructor(
    private readonly logger: Logger,
    /** The pool's upstream connections, once started (a forgotten task still running is cancelled there). */
    private readonly manager: () => McpConnectionManager | undefined,
  ) {
    this.table = new TaskTable<ModernTask>({ forgotten: (task, why) => this.forgotten(task, why) });
  }

  /** A task the upstream created for `owner`'s call, under a new id of the gateway's. */
  async created(owner: string, server: string, upstreamId: string, capabilities: ClientCapabilities | undefined, ttlMs: number | undefined): Promise<ModernTask> {
    // ttlMs on the wire is a positive integer or null; the gateway forgets every task, so never null.
    const keepMs = typeof ttlMs === 'number' && ttlMs > 0 ? Math.min(Math.max(1, Math.round(ttlMs)), MAX_KEEP_MS) : DEFAULT_KEEP_MS;
    const task: ModernTask = { id: await this.ids.mint(), owner, server, upstreamId, capabilities, keepMs, questions: new TaskQuestions('input'), controller: new AbortController() };
    this.byUpstream.set(key(server, upstreamId), task);
    this.table.add(task);
    this.table.expireIn(task, keepMs, 'its ttl passed');
    return task;
  }

  /** The task `id` of `owner`; the same -32602 for an unknown id as for another caller's. */
  owned(owner: string, id: unknown): ModernTask {
    return this.table.owned(owner, id);
  }

  /** Who the upstream's request about its task `upstreamId` goes to (its related-task `_meta` names it). */
  asker(server: string, upstreamId: string): RelayClient | undefined {
    const task = this.byUpstream.get(key(server, upstreamId));
    return task ? new TaskAsker(task) : undefined;
  }

  forget(task: ModernTask, why: string): void {
    this.table.forget(task, why);
  }

  close(): void {
    this.table.close('the gateway is shutting down');
  }

  private forgotten(task: ModernTask, why: string): void {
    this.byUpstream.delete(key(task.server, task.upstreamId));
    const reason = `the task was forgotten: ${why}`;
    task.controller.abort(new Error(reason));
    task.questions.rejectAll(reason);
    this.logger.debug('gateway: 2026-07-28 task forgotten', { server: task.server, why });
    // Still running upstream with no one left to read it: the upstream need not run it to its end.
    const manager = this.manager();
    if (task.outcome === undefined && manager) {
      cancelUpstreamTask(manager, task.server, task.upstreamId).catch((err: unknown) =>
        this.logger.debug('gateway: cancelling a forgotten task upstream failed', { server: task.server, error: errorMessage(err) }),
      );
    }
  }
}

/** What an upstream asks about a task goes into the task's open questions (its client is never sent requests). */
class TaskAsker implements RelayClient {
  constructor(private readonly task: ModernTask) {}

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.task.capabilities;
  }

  passes(): boolean {
    return false;
  }

  sees(): boolean {
    return false;
  }

  notify(_notification: Notification): void {}

  ask(request: InputQuestion, options: { key?: string; signal: AbortSignal }): Promise<unknown> {
    const params = request.params ? withoutRelatedTask(request.params) : undefined;
    return this.task.questions.ask({ method: request.method, ...(params ? { params } : {}) }, options.signal, options.key);
  }
}

function key(server: string, upstreamId: string): string {
  return `${server}\u0000${upstreamId}`;
}
