// A task as the host's one table holds it, whatever runs it: the agent's own turn, or an upstream's
// task behind the gateway. The product supplies the work (how its state, result and cancellation are
// found); the host mints the id, keeps the owner, answers tasks/* in either revision, bounds and
// forgets. The work tells the host its status changes and asks its client through the context.
import type { InputRequest } from '@modelcontextprotocol/server';
import type { Era } from './product.js';

/** A task's state in the 2025-11-25 vocabulary (`ttl`, `pollInterval`): the host maps it for 2026-07-28. */
export interface TaskState extends Record<string, unknown> {
  status: string;
  statusMessage?: string;
}

/** What the host gives a task's work. */
export interface TaskContext {
  /** The host's id for the task (what its client names it by). */
  readonly id: string;
  readonly era: Era;
  /** Aborted when the task is forgotten (its ttl, the bounds, its session ending, shutdown). */
  readonly signal: AbortSignal;
  /** The task's status changed: a 2025 session hears it as notifications/tasks/status. */
  changed(state: TaskState): void;
  /** The work's outcome is known: no question will come, so a tasks/get waiting for one answers now. */
  settled(): void;
  /**
   * Asks the task's client: a 2025 session is sent the request (naming the task); a 2026-07-28
   * client reads it from tasks/get's `inputRequests` and answers with tasks/update.
   */
  ask(request: InputRequest, options: { key?: string; signal: AbortSignal }): Promise<unknown>;
}

export interface TaskWork {
  /** Its state as it was created, when the work knows it (else the host asks `state` once). */
  readonly initial?: TaskState;
  /** Its state now (asking the upstream that runs it, for the gateway). */
  state(signal: AbortSignal): Promise<TaskState>;
  /** The call's result once the task ended (waits for it); a task that failed without one throws its JSON-RPC error. */
  result(signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Stops it; its state then says cancelled. */
  cancel(signal: AbortSignal): Promise<void>;
  /** How long the task is kept (default one hour): from its creation, or from its end when `ended` says. */
  readonly keepMs?: number;
  /** Settles when the work has ended, for work that knows (its keep time then counts from there). */
  readonly ended?: Promise<void>;
  /** The table forgot it: stop what still runs. */
  forgotten?(why: string): void;
}

export function isTerminal(status: unknown): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
