// Tasks (2025-11-25) across the gateway's one pool: a task an upstream creates for a client's
// task-augmented tools/call gets an id of the gateway's own, known only to that client. Its tasks/*
// requests go to the owning upstream under the upstream's id; another client naming the id is told
// the task does not exist; status notifications go to the owner only.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import type { PassThroughResult, TaskStatusParams } from '../mcp-client/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import type { RelayClient } from './relay.js';

/** Tasks remembered per client; the oldest are forgotten past it (the upstream's ttl ends them anyway). */
export const MAX_TASKS_PER_CLIENT = 1_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface TaskEntry {
  readonly id: string;
  readonly owner: RelayClient;
  readonly server: string;
  readonly upstreamId: string;
  status: string;
}

export class GatewayTasks {
  private readonly byId = new Map<string, TaskEntry>();
  private readonly byUpstream = new Map<string, TaskEntry>();

  constructor(private readonly logger: Logger) {}

  /** An upstream created a task for `owner`: the CreateTaskResult with the gateway's id in it. */
  created(owner: RelayClient, server: string, result: PassThroughResult): PassThroughResult {
    const task = result.task as Record<string, unknown> | undefined;
    if (!task || typeof task.taskId !== 'string') throw new ProtocolError(ProtocolErrorCode.InternalError, `MCP server '${server}' answered a task-augmented call without a task id`);
    const entry: TaskEntry = { id: randomUUID(), owner, server, upstreamId: task.taskId, status: String(task.status ?? 'working') };
    this.byId.set(entry.id, entry);
    this.byUpstream.set(upstreamKey(server, entry.upstreamId), entry);
    this.bound(owner);
    return { ...result, task: { ...task, taskId: entry.id } };
  }

  /** The task `id` of `client`; the same error for an unknown id as for another client's. */
  owned(client: RelayClient, id: unknown): TaskEntry {
    const entry = typeof id === 'string' ? this.byId.get(id) : undefined;
    if (!entry || entry.owner !== client) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${String(id)}`);
    return entry;
  }

  ownedBy(client: RelayClient): TaskEntry[] {
    return [...this.byId.values()].filter((e) => e.owner === client);
  }

  /** An upstream answer about `entry` as its owner sees it: the gateway's id wherever the task is named. */
  toClient(entry: TaskEntry, result: PassThroughResult): PassThroughResult {
    const out: PassThroughResult = { ...result };
    if (typeof out.taskId === 'string') out.taskId = entry.id;
    if (typeof out.status === 'string') entry.status = out.status;
    const meta = out._meta as Record<string, unknown> | undefined;
    if (meta && typeof meta[RELATED_TASK_META_KEY] === 'object' && meta[RELATED_TASK_META_KEY] !== null) out._meta = { ...meta, [RELATED_TASK_META_KEY]: { ...(meta[RELATED_TASK_META_KEY] as object), taskId: entry.id } };
    return out;
  }

  /** notifications/tasks/status from `server`, for the client that owns the task (if any). */
  status(server: string, params: TaskStatusParams): void {
    const entry = this.byUpstream.get(upstreamKey(server, params.taskId));
    if (!entry) return this.logger.debug('gateway: status of a task no client owns dropped', { server, taskId: params.taskId });
    entry.owner.notify({ method: 'notifications/tasks/status', params: this.toClient(entry, params) as never });
  }

  forget(entry: TaskEntry): void {
    this.byId.delete(entry.id);
    this.byUpstream.delete(upstreamKey(entry.server, entry.upstreamId));
  }

  /** A client went away: its tasks are forgotten; those still running are cancelled (no one can fetch them now). */
  leave(client: RelayClient, cancel: (entry: TaskEntry) => Promise<unknown>): Promise<void>[] {
    return this.ownedBy(client).map(async (entry) => {
      this.forget(entry);
      if (TERMINAL.has(entry.status)) return;
      try {
        await cancel(entry);
      } catch (err) {
        this.logger.debug('gateway: cancelling the task of a client that left failed', { server: entry.server, error: errorMessage(err) });
      }
    });
  }

  private bound(owner: RelayClient): void {
    const mine = this.ownedBy(owner);
    for (const entry of mine.slice(0, Math.max(0, mine.length - MAX_TASKS_PER_CLIENT))) this.forget(entry);
  }
}

function upstreamKey(server: string, taskId: string): string {
  return `${server}\u0000${taskId}`;
}
