// The table of tasks a server holds for its clients: each task found only by its owner (the caller
// that created it, or the 2025 session it belongs to), bounded per owner and in total (oldest
// forgotten first), each forgotten when its time is up.
import { taskNotFound } from './tasks-extension.js';

/** Tasks one caller holds; past it that caller's oldest are forgotten. */
export const MAX_TASKS_PER_CALLER = 1_000;
/** Tasks held for all callers together: with [server_auth] each caller has a bound, but callers are many. */
export const MAX_TASKS = 10_000;
/** The longest a task can be kept: a timer past 2^31-1 ms (about 24.8 days) fires after 1 ms. */
export const MAX_KEEP_MS = 2_147_483_647;

export interface TableTask {
  readonly id: string;
  /** Who may see it: the caller's identity (`issuer#subject` with [server_auth]; else one identity for all). */
  readonly owner: string;
}

export interface TaskTableOptions<T> {
  /** Whether the bounds may forget `task` now (e.g. only finished ones, when running ones have a bound of their own). */
  evictable?(task: T): boolean;
  /** `task` left the table (bounds or its time): end what it holds. */
  forgotten(task: T, why: string): void;
  maxPerCaller?: number;
  maxTasks?: number;
}

export class TaskTable<T extends TableTask> {
  private readonly byId = new Map<string, T>();
  /** Each caller's ids, oldest first: the per-caller bound without a scan of every task. */
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly maxPerCaller: number;
  private readonly maxTasks: number;

  constructor(private readonly options: TaskTableOptions<T>) {
    this.maxPerCaller = options.maxPerCaller ?? MAX_TASKS_PER_CALLER;
    this.maxTasks = options.maxTasks ?? MAX_TASKS;
  }

  get size(): number {
    return this.byId.size;
  }

  /** Adds `task`, then forgets the oldest (evictable) tasks past the bounds, the caller's own first. */
  add(task: T): void {
    this.byId.set(task.id, task);
    let mine = this.byOwner.get(task.owner);
    if (!mine) this.byOwner.set(task.owner, (mine = new Set()));
    mine.add(task.id);
    this.evict(mine.values(), mine.size - this.maxPerCaller, `its caller holds more than ${this.maxPerCaller} tasks`);
    this.evict(this.byId.keys(), this.byId.size - this.maxTasks, `more than ${this.maxTasks} tasks are held`);
  }

  /** The task `id` of `owner`; the same -32602 for an unknown id as for another caller's. */
  owned(owner: string, id: unknown): T {
    const task = typeof id === 'string' ? this.byId.get(id) : undefined;
    if (!task || task.owner !== owner) throw taskNotFound(id);
    return task;
  }

  /** Whether `task` is still held (not forgotten). */
  holds(task: T): boolean {
    return this.byId.get(task.id) === task;
  }

  /** The tasks of `owner`, oldest first. */
  ownedBy(owner: string): T[] {
    return [...(this.byOwner.get(owner) ?? [])].map((id) => this.byId.get(id)!);
  }

  /** Forgets every task of `owner` (its session ended). */
  forgetOwner(owner: string, why: string): void {
    for (const task of this.ownedBy(owner)) this.forget(task, why);
  }

  /** Forgets `task` after `ms` (replacing an earlier time; clamped to what a timer can hold). */
  expireIn(task: T, ms: number, why: string): void {
    clearTimeout(this.timers.get(task.id));
    const timer = setTimeout(() => this.forget(task, why), Math.max(0, Math.min(ms, MAX_KEEP_MS)));
    timer.unref();
    this.timers.set(task.id, timer);
  }

  forget(task: T, why: string): void {
    if (this.byId.get(task.id) !== task) return;
    this.byId.delete(task.id);
    const mine = this.byOwner.get(task.owner);
    mine?.delete(task.id);
    if (mine?.size === 0) this.byOwner.delete(task.owner);
    clearTimeout(this.timers.get(task.id));
    this.timers.delete(task.id);
    this.options.forgotten(task, why);
  }

  close(why: string): void {
    for (const task of [...this.byId.values()]) this.forget(task, why);
  }

  private evict(ids: Iterator<string>, excess: number, why: string): void {
    // Collected first: forgetting while walking the same Set would skip entries.
    const victims: T[] = [];
    for (let next = ids.next(); excess > victims.length && !next.done; next = ids.next()) {
      const task = this.byId.get(next.value);
      if (task && (this.options.evictable?.(task) ?? true)) victims.push(task);
    }
    for (const task of victims) this.forget(task, why);
  }
}
