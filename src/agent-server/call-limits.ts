// State shared by every connection of one server process: how many turns may run at once. (Which
// threads a running call owns is the store's ThreadLeases: in this process, or across replicas.)

export type Release = () => void;

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
