// Per-caller limits of [server_auth.limits]: requests per minute (a GCRA bucket: a minute's worth may
// come at once, then one per 60/N s) and concurrent tool calls. The counts live behind a small store
// interface, in memory here; a shared store (PostgreSQL, the store layer's PgCallerLimits: a fixed
// window per minute there) lets replicas enforce one budget.
export type Release = () => void;

export interface CallerLimitStore {
  /** Count one request of `caller` against `perMinute`: 0 when admitted, else seconds until it would be. */
  takeRequest(caller: string, perMinute: number, now: number): Promise<number>;
  /** As takeRequest, counting nothing: 0 when a request would be admitted now. */
  peekRequest(caller: string, perMinute: number, now: number): Promise<number>;
  /** One of `max` concurrent call slots of `caller`: its release, or null when all are taken. */
  acquireCall(caller: string, max: number): Promise<Release | null>;
}

const MINUTE_MS = 60_000;
const PRUNE_AT = 10_000;

export class MemoryLimitStore implements CallerLimitStore {
  // GCRA's theoretical arrival time per caller: one number each, whatever the rate.
  private readonly tat = new Map<string, number>();
  private readonly calls = new Map<string, number>();

  async takeRequest(caller: string, perMinute: number, now: number): Promise<number> {
    const interval = MINUTE_MS / perMinute;
    const tolerance = MINUTE_MS - interval;
    const tat = Math.max(this.tat.get(caller) ?? now, now);
    if (tat - now > tolerance) return Math.max(1, Math.ceil((tat - now - tolerance) / 1000));
    this.tat.set(caller, tat + interval);
    if (this.tat.size > PRUNE_AT) this.prune(now);
    return 0;
  }

  async peekRequest(caller: string, perMinute: number, now: number): Promise<number> {
    const interval = MINUTE_MS / perMinute;
    const tolerance = MINUTE_MS - interval;
    const tat = Math.max(this.tat.get(caller) ?? now, now);
    return tat - now > tolerance ? Math.max(1, Math.ceil((tat - now - tolerance) / 1000)) : 0;
  }

  async acquireCall(caller: string, max: number): Promise<Release | null> {
    const running = this.calls.get(caller) ?? 0;
    if (running >= max) return null;
    this.calls.set(caller, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.calls.get(caller) ?? 1) - 1;
      if (left <= 0) this.calls.delete(caller);
      else this.calls.set(caller, left);
    };
  }

  /** Callers whose bucket is full again carry no state worth keeping. */
  private prune(now: number): void {
    for (const [caller, tat] of this.tat) if (tat <= now) this.tat.delete(caller);
  }
}

export interface CallerLimitSettings {
  requestsPerMinute?: number;
  concurrentCalls?: number;
}

function tooManyRequests(rpm: number, wait: number): string {
  return `Too many requests: this caller may send ${rpm} requests per minute ([server_auth.limits] requests_per_minute); retry in ${wait} s`;
}

export type Admission = { ok: true; release: Release } | { ok: false; message: string; retryAfterSec: number };

export class CallerLimits {
  constructor(
    private settings: CallerLimitSettings,
    private readonly store: CallerLimitStore = new MemoryLimitStore(),
  ) {}

  /** Other limits (a configuration reload), from the next request on; what callers used so far still counts. */
  update(settings: CallerLimitSettings): void {
    this.settings = { ...settings };
  }

  get active(): boolean {
    return this.settings.requestsPerMinute !== undefined || this.settings.concurrentCalls !== undefined;
  }

  /** Whether `caller` is within its requests per minute now, counting nothing (a request not yet read). */
  async within(caller: string, now = Date.now()): Promise<Admission> {
    const rpm = this.settings.requestsPerMinute;
    const wait = rpm === undefined ? 0 : await this.store.peekRequest(caller, rpm, now);
    return wait === 0 ? { ok: true, release: () => {} } : { ok: false, retryAfterSec: wait, message: tooManyRequests(rpm!, wait) };
  }

  /** Admit one HTTP request carrying `requests` JSON-RPC requests, `calls` of them tools/call. */
  async admit(caller: string, requests: number, calls: number, now = Date.now()): Promise<Admission> {
    const { requestsPerMinute: rpm, concurrentCalls: max } = this.settings;
    if (rpm !== undefined && requests > 0) {
      let wait = 0;
      for (let i = 0; i < requests && wait === 0; i++) wait = await this.store.takeRequest(caller, rpm, now);
      if (wait > 0) return { ok: false, retryAfterSec: wait, message: tooManyRequests(rpm, wait) };
    }
    const releases: Release[] = [];
    if (max !== undefined) {
      for (let i = 0; i < calls; i++) {
        let release: Release | null;
        try {
          release = await this.store.acquireCall(caller, max);
        } catch (err) {
          // A shared store failed midway: the slots already taken go back.
          for (const r of releases) r();
          throw err;
        }
        if (!release) {
          for (const r of releases) r();
          return { ok: false, retryAfterSec: 1, message: `Too many concurrent calls: this caller may run ${max} tool calls at once ([server_auth.limits] concurrent_calls); retry when one has finished` };
        }
        releases.push(release);
      }
    }
    return { ok: true, release: () => releases.forEach((r) => r()) };
  }
}
