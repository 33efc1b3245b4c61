// One operation's deadline: an AbortSignal that fires when time runs out (extended by progress) or
// when the caller's signal aborts. It listens to the caller's signal itself rather than combining
// signals with AbortSignal.any, which costs more than the rest of this class on a hot call path.

export class Deadline {
  private readonly controller = new AbortController();
  private readonly startedAt = Date.now();
  private expiresAt: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fired = false;

  /**
   * @param timeoutMs how long the operation may stay silent
   * @param maxTotalMs the hard limit progress can never extend past
   * @param reason the error the signal aborts with (and the operation fails with)
   * @param parents the caller's signals; the first to abort aborts this signal with its reason
   */
  constructor(
    readonly timeoutMs: number,
    private readonly maxTotalMs: number,
    private readonly reason: () => Error,
    parents: readonly (AbortSignal | undefined)[] = [],
  ) {
    this.expiresAt = this.startedAt + timeoutMs;
    this.parents = parents.filter((p): p is AbortSignal => p !== undefined);
    const gone = this.parents.find((p) => p.aborted);
    if (gone) this.controller.abort(gone.reason);
    else for (const p of this.parents) p.addEventListener('abort', this.onParentAbort, { once: true });
    this.schedule();
  }

  private readonly parents: readonly AbortSignal[];

  private readonly onParentAbort = (event: Event): void => {
    this.controller.abort((event.target as AbortSignal).reason);
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
    if (this.fired) return;
    this.expiresAt = Math.min(Date.now() + this.timeoutMs, this.startedAt + this.maxTotalMs);
    this.schedule();
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const p of this.parents) p.removeEventListener('abort', this.onParentAbort);
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fired = true;
      this.controller.abort(this.reason());
    }, this.remainingMs());
  }
}
