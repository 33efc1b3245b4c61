// When to try a server again: exponential backoff (1 s doubling to 30 s) after failed starts, and
// giving up on a server that crashed too often (5 crashes in 60 s).

/** Background retries of a failed server: the first delay, doubling up to the max; a server that crashes `crashLimit` times within `crashWindowMs` is given up. */
export interface RestartPolicyOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  crashLimit?: number;
  crashWindowMs?: number;
}

export const DEFAULT_RESTART_POLICY: Required<RestartPolicyOptions> = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  crashLimit: 5,
  crashWindowMs: 60_000,
};

export class RestartPolicy {
  private readonly opts: Required<RestartPolicyOptions>;
  private failures = 0;
  private crashes: number[] = [];

  constructor(options: RestartPolicyOptions = {}, private readonly now: () => number = Date.now) {
    this.opts = { ...DEFAULT_RESTART_POLICY, ...options };
  }

  /** A start attempt failed: the delay before the next one. */
  nextDelayMs(): number {
    const delay = Math.min(this.opts.initialDelayMs * 2 ** Math.min(this.failures, 16), this.opts.maxDelayMs);
    this.failures++;
    return delay;
  }

  /** A start succeeded: the next failure starts the backoff from the beginning. */
  succeeded(): void {
    this.failures = 0;
  }

  /** A ready server died. Returns false when it crashed too often and should be given up. */
  recordCrash(): boolean {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.opts.crashWindowMs);
    this.crashes.push(t);
    return this.crashes.length < this.opts.crashLimit;
  }

  get crashLimitText(): string {
    const n = this.opts.crashLimit;
    return `${n} ${n === 1 ? 'crash' : 'crashes'} in ${Math.round(this.opts.crashWindowMs / 1000)} s`;
  }
}
