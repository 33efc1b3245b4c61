// When to try a server again: exponential backoff (1 s doubling to 30 s) after failed starts, and
// giving up on a server that crashed too often (5 crashes in 60 s); the one timer of a retry.
import { formatDuration, SwitchboardError } from '../util/index.js';

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

  /** A ready server stopped: what its failure shows, and when to start it again (null: given up). */
  afterCrash(serverName: string, error: Error): { error: Error; retryInMs: number | null; display: string } {
    const again = this.recordCrash();
    // It did start: "failed to start" would send the user looking in the wrong place.
    const stopped = (what: string) => `MCP server \`${serverName}\` stopped after being ready (${what}): ${error.message}`;
    if (!again) {
      const gaveUp = new SwitchboardError('crash_limit', `gave up after ${this.crashLimitText}: ${error.message}`, { cause: error });
      return { error: gaveUp, retryInMs: null, display: stopped(`gave up after ${this.crashLimitText}`) };
    }
    const delay = this.nextDelayMs();
    return { error, retryInMs: delay, display: stopped(`restarting in ${formatDuration(delay)}`) };
  }
}

/** The background retry of one server: at most one pending, never keeping the process alive. */
export class RetryTimer {
  private timer: NodeJS.Timeout | undefined;

  schedule(delayMs: number, run: () => void): void {
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      run();
    }, delayMs);
    this.timer.unref();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
