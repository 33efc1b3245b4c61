// Thread leases across replicas: a row per leased thread with an expiry on the database's clock.
// Each replica renews all its leases in one statement every `renewMs`; a replica that dies stops
// renewing, so its leases expire after `ttlMs` (7 s by default: "within 10 seconds") and another takes them.
import { randomUUID } from 'node:crypto';
import { errorMessage, type Logger } from '../../util/index.js';
import { leaseLost, LocalThreadLeases, type ThreadLease, type ThreadLeases } from '../thread-leases.js';
import type { Database } from './database.js';

export const DEFAULT_LEASE_TTL_MS = 7_000;

interface Held {
  threadId: string;
  token: string;
  controller: AbortController;
  renewedAt: number;
  releaseLocal(): void;
}

export interface PgLeaseOptions {
  ttlMs?: number;
  logger: Logger;
}

export class PgThreadLeases implements ThreadLeases {
  readonly shared: boolean = true;
  private readonly local = new LocalThreadLeases();
  private readonly held = new Map<string, Held>();
  private readonly ttlMs: number;
  private readonly renewMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private renewing = false;

  constructor(
    private readonly db: Database,
    private readonly options: PgLeaseOptions,
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.renewMs = Math.max(50, Math.floor(this.ttlMs / 4));
  }

  async tryAcquire(threadId: string): Promise<ThreadLease | null> {
    const controller = new AbortController();
    const claim = this.local.claim(threadId, controller.signal);
    if (!claim) return null;
    const token = `${randomUUID()}`;
    try {
      const { rowCount } = await this.db.query(
        'take the thread lease',
        `insert into sb_thread_leases (thread_id, owner, expires_at) values ($1, $2, now() + $3 * interval '1 millisecond')
         on conflict (thread_id) do update set owner = excluded.owner, acquired_at = now(), expires_at = excluded.expires_at
         where sb_thread_leases.expires_at <= now()`,
        [threadId, token, this.ttlMs],
      );
      if (rowCount !== 1) {
        claim.releaseNow();
        return null;
      }
    } catch (err) {
      claim.releaseNow();
      throw err;
    }
    const held: Held = { threadId, token, controller, renewedAt: Date.now(), releaseLocal: claim.releaseNow };
    this.held.set(token, held);
    this.startTimer();
    return {
      lost: controller.signal,
      release: async () => {
        if (!this.held.delete(token)) return;
        if (this.held.size === 0) this.stopTimer();
        // The row goes first: a next turn here must not find its own replica's stale row and answer busy.
        await this.db
          .query('release the thread lease', 'delete from sb_thread_leases where thread_id = $1 and owner = $2', [threadId, token])
          .catch((err: unknown) => this.options.logger.warn('could not release a thread lease; it expires by itself', { threadId, error: errorMessage(err) }));
        held.releaseLocal();
      },
    };
  }

  isBusy(threadId: string): boolean {
    return this.local.isBusy(threadId);
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), this.renewMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One statement renews every lease this replica holds; one that is gone (or too long unrenewed) is lost. */
  private async renew(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    const tokens = [...this.held.keys()];
    const started = Date.now();
    try {
      const { rows } = await this.db.query<{ owner: string }>(
        'renew thread leases',
        `update sb_thread_leases set expires_at = now() + $2 * interval '1 millisecond' where owner = any($1::text[]) returning owner`,
        [tokens, this.ttlMs],
      );
      const renewed = new Set(rows.map((r) => r.owner));
      for (const token of tokens) {
        const held = this.held.get(token);
        if (!held) continue;
        if (renewed.has(token)) held.renewedAt = started;
        else this.lose(held, 'another replica took it after it expired');
      }
    } catch (err) {
      for (const held of this.held.values()) {
        // The database may be back before the lease runs out; only a lease past its expiry is lost.
        if (Date.now() - held.renewedAt >= this.ttlMs) this.lose(held, `it could not be renewed: ${errorMessage(err)}`);
      }
    } finally {
      this.renewing = false;
    }
  }

  private lose(held: Held, why: string): void {
    this.held.delete(held.token);
    held.releaseLocal();
    if (this.held.size === 0) this.stopTimer();
    const error = leaseLost(held.threadId, why);
    this.options.logger.warn(error.message, { threadId: held.threadId });
    held.controller.abort(error);
  }

  close(): void {
    this.stopTimer();
  }
}
