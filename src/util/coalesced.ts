// Work that runs one at a time and coalesces: asked for while it runs, it runs once more after (however
// many times it was asked), and every caller meanwhile gets that same run's promise.

export class Coalesced {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly work: () => Promise<void>) {}

  /** Whether a run is going on now. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Runs the work, or asks the run going on for one more; resolves when no more is asked for. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.work();
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
