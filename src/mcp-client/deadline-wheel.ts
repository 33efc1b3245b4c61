// One timer for many deadlines: a client's operations share it instead of arming a timer each, and
// closing the wheel ends every deadline still running (so no operation listens to the client's close
// signal either). A setTimeout/clearTimeout pair and an abort listener per call were a measurable
// part of the manager's per-call cost (docs/performance.md, "Where the time goes").

/** What the wheel keeps: a deadline with its expiry time, told when it expired or was aborted. */
export interface WheelEntry {
  /** Date.now() value at which the entry expires; may move later (progress), never earlier. */
  readonly expiresAt: number;
  expire(): void;
  abort(reason: unknown): void;
}

export class DeadlineWheel {
  private readonly live = new Set<WheelEntry>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires; it may be for an entry already gone, and then it fires early and re-arms. */
  private armedFor = Infinity;
  private closed: { reason: unknown } | undefined;

  /** The reason the wheel was closed with, if it was. */
  get closedReason(): { reason: unknown } | undefined {
    return this.closed;
  }

  /** Start keeping `entry`; false when the wheel is closed (the caller aborts the entry itself). */
  add(entry: WheelEntry): boolean {
    if (this.closed) return false;
    this.live.add(entry);
    if (entry.expiresAt < this.armedFor) this.arm(entry.expiresAt);
    // The timer holds the process open only while a deadline runs, as a timer per deadline did.
    else if (this.live.size === 1) this.timer?.ref();
    return true;
  }

  delete(entry: WheelEntry): void {
    if (!this.live.delete(entry)) return;
    // Not cleared: the next operation most likely expires later, and an early firing only re-arms.
    if (this.live.size === 0) this.timer?.unref();
  }

  /** `entry.expiresAt` moved; only an earlier time (never the case today) needs the timer moved. */
  moved(entry: WheelEntry): void {
    if (this.live.has(entry) && entry.expiresAt < this.armedFor) this.arm(entry.expiresAt);
  }

  /** End every deadline with `reason`; later ones end at once. */
  close(reason: unknown): void {
    if (this.closed) return;
    this.closed = { reason };
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
    const entries = [...this.live];
    this.live.clear();
    for (const entry of entries) entry.abort(reason);
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(this.fire, Math.max(0, at - Date.now()));
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    const expired: WheelEntry[] = [];
    for (const entry of this.live) if (entry.expiresAt <= now) expired.push(entry);
    for (const entry of expired) this.live.delete(entry);
    // Expiring aborts requests, whose handlers may add deadlines: arm for the rest afterwards.
    for (const entry of expired) entry.expire();
    let next = Infinity;
    for (const entry of this.live) if (entry.expiresAt < next) next = entry.expiresAt;
    if (next < this.armedFor) this.arm(next);
  };
}
