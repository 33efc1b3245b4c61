// Who may run a turn on a thread: one lease per thread, so a thread runs one turn at a time. The
// local leases hold for one process (the file store's world); the PostgreSQL ones across replicas.
import { SwitchboardError } from '../util/index.js';

/** A held lease. */
export interface ThreadLease {
  /** Aborted when the lease was lost (it could not be renewed in time): the turn must stop. */
  readonly lost: AbortSignal;
  /** Give the thread back; never rejects (an unreleased shared lease expires by itself). */
  release(): Promise<void>;
}

export interface ThreadLeases {
  /** True when other processes may hold leases too (replicas on a shared store). */
  readonly shared: boolean;
  /** The thread's lease, or null when a turn holds it here or on another replica. */
  tryAcquire(threadId: string): Promise<ThreadLease | null>;
  /** Whether this process holds the thread's lease. */
  isBusy(threadId: string): boolean;
}

const NEVER_LOST = new AbortController().signal;

/** One owner per thread id in this process; the check and the claim are one synchronous step, so two callers cannot both win. */
export class LocalThreadLeases implements ThreadLeases {
  readonly shared: boolean = false;
  private readonly owners = new Set<string>();

  async tryAcquire(threadId: string): Promise<ThreadLease | null> {
    return this.claim(threadId);
  }

  /** The synchronous claim (also the first step of the shared leases). */
  claim(threadId: string, lost: AbortSignal = NEVER_LOST): (ThreadLease & { releaseNow(): void }) | null {
    if (this.owners.has(threadId)) return null;
    this.owners.add(threadId);
    let released = false;
    const releaseNow = () => {
      if (released) return;
      released = true;
      this.owners.delete(threadId);
    };
    return { lost, releaseNow, release: async () => releaseNow() };
  }

  isBusy(threadId: string): boolean {
    return this.owners.has(threadId);
  }
}

export function leaseLost(threadId: string, why: string): SwitchboardError {
  return new SwitchboardError('lease_lost', `the lease on thread ${threadId} was lost (${why}); the turn was stopped so that another replica can continue the thread`);
}
