// State shared by every connection of one server process: which threads a running tool call owns
// (a thread answers one call at a time), and how many turns may run at once.

export type Release = () => void;

/** One owner per thread id; acquiring is synchronous so two replies cannot both win. */
export class ThreadLeases {
  private readonly owners = new Set<string>();

  tryAcquire(threadId: string): Release | null {
    if (this.owners.has(threadId)) return null;
    this.owners.add(threadId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.owners.delete(threadId);
    };
  }

  isBusy(threadId: string): boolean {
    return this.owners.has(threadId);
  }
}

/** A counting bound on concurrently running tool calls (turns). */
export class TurnLimiter {
  private running = 0;

  constructor(readonly limit: number) {}

  tryAcquire(): Release | null {
    if (this.running >= this.limit) return null;
    this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
    };
  }

  get active(): number {
    return this.running;
  }
}
