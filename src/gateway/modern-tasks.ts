// Tasks for 2026-07-28 clients (the tasks extension, SEP-2663) bridged onto a 2025 upstream's tasks:
// the gateway keeps, per task, its own unguessable id, the caller it belongs to, the upstream's
// outcome (fetched with tasks/result as soon as the task exists) and the questions the upstream asked
// meanwhile, which the client reads on tasks/get (`inputRequests`) and answers with tasks/update.
import { randomBytes } from 'node:crypto';
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type ClientCapabilities } from '@modelcontextprotocol/server';
import type { PassThroughResult } from '../mcp-client/index.js';
import { TaskIds } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import { MAX_TASKS_PER_CLIENT } from './gateway-tasks.js';
import type { Notification, RelayClient } from './relay.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** How long a task is remembered when its upstream gave it no ttl. */
const DEFAULT_KEEP_MS = 24 * 60 * 60 * 1000;
/** The longest a timer can wait: past 2^31-1 ms Node fires it after 1 ms, forgetting the task at once. */
const MAX_KEEP_MS = 2_147_483_647;

/** A JSON-RPC error as a failed task inlines it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

interface Question {
  request: { method: string; params?: Record<string, unknown> };
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

export interface ModernTask {
  readonly id: string;
  /** Who may see it: the caller's identity (`issuer#subject` with [server_auth]; else one identity for all). */
  readonly owner: string;
  readonly server: string;
  readonly upstreamId: string;
  /** The capabilities of the request that created it: what its upstream may ask. */
  readonly capabilities: ClientCapabilities | undefined;
  readonly questions: Map<string, Question>;
  /** Settles when the upstream's tasks/result answered (the outcome is then set). */
  fetched?: Promise<void>;
  outcome?: { result: PassThroughResult } | { error: TaskError };
  readonly controller: AbortController;
  expiry?: NodeJS.Timeout;
}

/** A -32021 naming the extension: the request needs it and its client did not declare it. */
export function extensionRequired(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities }, `${what} needs the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare`);
}

/** The answer for an id the caller has no task under (never existed, forgotten, or another caller's). */
export function taskNotFound(id: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${String(id)}`);
}

/** Whether a 2026-07-28 request's own capabilities declare the tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

/** The upstream's words without the 2025 related-task marker (the task id is the gateway's own now). */
export function withoutRelatedTask<T extends Record<string, unknown>>(value: T): T {
  const meta = value._meta as Record<string, unknown> | undefined;
  if (!meta || !(RELATED_TASK in meta)) return value;
  const { [RELATED_TASK]: _gone, ...rest } = meta;
  return { ...value, ...(Object.keys(rest).length > 0 ? { _meta: rest } : { _meta: undefined }) };
}

export class ModernTasks {
  private readonly byId = new Map<string, ModernTask>();
  private readonly byUpstream = new Map<string, ModernTask>();

  /** Mints the ids; the HTTP leg gives it the key replicas share (its ids then name this replica). */
  ids = new TaskIds(undefined);

  constructor(private readonly logger: Logger) {}

  /** A task the upstream created for `owner`'s call, under a new id of the gateway's. */
  async created(owner: string, server: string, upstreamId: string, capabilities: ClientCapabilities | undefined, ttlMs: number | undefined): Promise<ModernTask> {
    const task: ModernTask = { id: await this.ids.mint(), owner, server, upstreamId, capabilities, questions: new Map(), controller: new AbortController() };
    this.byId.set(task.id, task);
    this.byUpstream.set(key(server, upstreamId), task);
    task.expiry = setTimeout(() => this.forget(task, 'its ttl passed'), Math.min(ttlMs ?? DEFAULT_KEEP_MS, MAX_KEEP_MS));
    task.expiry.unref();
    const mine = [...this.byId.values()].filter((t) => t.owner === owner);
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_TASKS_PER_CLIENT))) this.forget(old, `its caller holds more than ${MAX_TASKS_PER_CLIENT} tasks`);
    return task;
  }

  /** The task `id` of `owner`; the same -32602 for an unknown id as for another caller's. */
  owned(owner: string, id: unknown): ModernTask {
    const task = typeof id === 'string' ? this.byId.get(id) : undefined;
    if (!task || task.owner !== owner) throw taskNotFound(id);
    return task;
  }

  /** Who the upstream's request about its task `upstreamId` goes to (its related-task `_meta` names it). */
  asker(server: string, upstreamId: string): RelayClient | undefined {
    const task = this.byUpstream.get(key(server, upstreamId));
    return task ? new TaskAsker(task) : undefined;
  }

  /** The client's answers: each one answers the question of its key; unknown keys are ignored. */
  answer(task: ModernTask, responses: Record<string, unknown>): void {
    for (const [k, q] of task.questions) {
      if (responses[k] === undefined) continue;
      task.questions.delete(k);
      q.resolve(responses[k]);
    }
  }

  forget(task: ModernTask, why: string): void {
    if (this.byId.get(task.id) !== task) return;
    this.byId.delete(task.id);
    this.byUpstream.delete(key(task.server, task.upstreamId));
    clearTimeout(task.expiry);
    task.controller.abort(new Error(`the task was forgotten: ${why}`));
    for (const q of task.questions.values()) q.reject(new Error(`the task was forgotten: ${why}`));
    task.questions.clear();
    this.logger.debug('gateway: 2026-07-28 task forgotten', { server: task.server, why });
  }

  close(): void {
    for (const task of [...this.byId.values()]) this.forget(task, 'the gateway is shutting down');
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

  notify(_notification: Notification): void {}

  ask(request: { method: string; params?: Record<string, unknown> }, options: { key?: string; signal: AbortSignal }): Promise<unknown> {
    const { task } = this;
    const params = request.params ? withoutRelatedTask(request.params) : undefined;
    return new Promise((resolve, reject) => {
      const k = options.key ?? `input-${randomBytes(6).toString('base64url')}`;
      task.questions.set(k, { request: { method: request.method, ...(params ? { params } : {}) }, resolve, reject });
      options.signal.addEventListener(
        'abort',
        () => {
          task.questions.delete(k);
          reject(new Error(`the upstream withdrew its ${request.method}: ${errorMessage(options.signal.reason)}`));
        },
        { once: true },
      );
    });
  }
}

function key(server: string, upstreamId: string): string {
  return `${server}\u0000${upstreamId}`;
}
