// One operation's deadline: an AbortSignal that fires when time runs out (extended by progress), when
// a caller's signal aborts, or when its wheel closes (the client shutting down). Its time is kept by a
// DeadlineWheel (no timer of its own), and `race` rejects a pending attempt directly, without an abort
// listener: both cost more than the rest of this class on a hot call path.
import { DeadlineWheel, type WheelEntry } from './deadline-wheel.js';

/** The wheel of deadlines that belong to no client (tests, and operations outside a client). */
const sharedWheel = new DeadlineWheel();

export class Deadline implements WheelEntry {
  private readonly controller = new AbortController();
  private readonly startedAt = Date.now();
  expiresAt: number;
  private fired = false;
  /** Rejects the attempt `race` is waiting for. */
  private rejectRace: ((reason: unknown) => void) | undefined;
  private readonly parents: readonly AbortSignal[];

  /**
   * @param timeoutMs how long the operation may stay silent
   * @param maxTotalMs the hard limit progress can never extend past
   * @param reason the error the signal aborts with (and the operation fails with) when time runs out
   * @param parents the caller's signals; the first to abort aborts this signal with its reason
   * @param wheel keeps the time; closing it aborts this signal with the wheel's reason
   */
  constructor(
    readonly timeoutMs: number,
    private readonly maxTotalMs: number,
    private readonly reason: () => Error,
    parents: readonly (AbortSignal | undefined)[] = [],
    private readonly wheel: DeadlineWheel = sharedWheel,
  ) {
    this.expiresAt = this.startedAt + timeoutMs;
    this.parents = parents.filter((p): p is AbortSignal => p !== undefined);
    const gone = this.parents.find((p) => p.aborted);
    if (gone) {
      this.abort(gone.reason);
      return;
    }
    if (!wheel.add(this)) {
      this.abort(wheel.closedReason?.reason);
      return;
    }
    for (const p of this.parents) p.addEventListener('abort', this.onParentAbort, { once: true });
  }

  private readonly onParentAbort = (event: Event): void => {
    this.abort((event.target as AbortSignal).reason);
  };

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.fired;
  }

  remainingMs(): number {
    return Math.max(0, this.expiresAt - Date.now());
  }

  /** The server reported progress: it gets a full timeout again, up to the total limit. */
  extend(): void {
    if (this.controller.signal.aborted) return;
    this.expiresAt = Math.min(Date.now() + this.timeoutMs, this.startedAt + this.maxTotalMs);
    this.wheel.moved(this);
  }

  /**
   * `attempt`, or this deadline's reason as soon as it aborts: the deadline holds even when an
   * attempt ignores the signal. One attempt at a time (a retry replaces the last).
   */
  race<T>(attempt: Promise<T>): Promise<T> {
    const signal = this.controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      this.rejectRace = reject;
      attempt.then(resolve, reject);
    });
  }

  dispose(): void {
    this.wheel.delete(this);
    this.rejectRace = undefined;
    for (const p of this.parents) p.removeEventListener('abort', this.onParentAbort);
  }

  /** Time ran out (the wheel calls this). */
  expire(): void {
    if (this.controller.signal.aborted) return;
    this.fired = true;
    this.abort(this.reason());
  }

  abort(reason: unknown): void {
    if (this.controller.signal.aborted) return;
    this.wheel.delete(this);
    this.controller.abort(reason);
    this.rejectRace?.(this.controller.signal.reason);
  }
}
