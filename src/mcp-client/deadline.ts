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
   * @param parent the caller's signal; its abort aborts this signal with the caller's reason
   */
  constructor(
    readonly timeoutMs: number,
    private readonly maxTotalMs: number,
    private readonly reason: () => Error,
    private readonly parent?: AbortSignal,
  ) {
    this.expiresAt = this.startedAt + timeoutMs;
    if (parent?.aborted) this.controller.abort(parent.reason);
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
    this.schedule();
  }

  private readonly onParentAbort = (): void => {
    this.controller.abort(this.parent!.reason);
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
    this.parent?.removeEventListener('abort', this.onParentAbort);
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
