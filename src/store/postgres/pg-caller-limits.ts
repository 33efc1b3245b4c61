// [server_auth.limits] across replicas. Requests per minute: a fixed-window counter row per caller and
// minute, taken with one atomic upsert that never counts past the limit. Concurrent calls: a row per
// running call with an expiry its replica renews, so the slots of a replica that died free themselves.
import { randomUUID } from 'node:crypto';
import { errorMessage, type Logger } from '../../util/index.js';
import type { SharedLimitCounters } from '../caller-limits.js';
import { storeUnavailable } from '../store-errors.js';
import type { Database } from './database.js';

const MINUTE_MS = 60_000;
/** How long a call slot outlives its replica's last renewal. */
export const DEFAULT_CALL_SLOT_TTL_MS = 30_000;

export class PgCallerLimits implements SharedLimitCounters {
  private readonly held = new Set<string>();
  private readonly ttlMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private prunedWindow = 0;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    options: { slotTtlMs?: number | undefined } = {},
  ) {
    this.ttlMs = options.slotTtlMs ?? DEFAULT_CALL_SLOT_TTL_MS;
  }

  async takeRequest(caller: string, perMinute: number, now: number): Promise<number> {
    // The replicas' clocks pick the window (they must agree anyway for token expiry).
    const window = Math.floor(now / MINUTE_MS);
    const { rows } = await this.db.query(
      'count a request against the caller limits',
      `insert into sb_caller_requests (caller, window_start, count) values ($1, $2, 1)
       on conflict (caller, window_start) do update set count = sb_caller_requests.count + 1
       where sb_caller_requests.count < $3 returning count`,
      [caller, window, perMinute],
    );
    this.pruneWindows(window);
    if (rows.length > 0) return 0;
    return Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - now) / 1000));
  }

  async peekRequest(caller: string, perMinute: number, now: number): Promise<number> {
    const window = Math.floor(now / MINUTE_MS);
    const { rows } = await this.db.query('read the caller limits', 'select count from sb_caller_requests where caller = $1 and window_start = $2', [caller, window]);
    const count = Number((rows[0] as { count?: unknown } | undefined)?.count ?? 0);
    return count < perMinute ? 0 : Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - now) / 1000));
  }

  async acquireCall(caller: string, max: number): Promise<(() => void) | null> {
    const id = randomUUID();
    let client;
    try {
      client = await this.db.pool.connect();
    } catch (err) {
      throw storeUnavailable(this.db.source, 'take a concurrent call slot', err);
    }
    let taken: boolean;
    try {
      // The lock makes count-then-insert one step per caller across replicas; the insert's own
      // snapshot is taken after the lock, so it counts every slot committed before.
      await client.query('begin');
      await client.query(`select pg_advisory_xact_lock(hashtext('sb_caller_calls:' || $1))`, [caller]);
      const { rows } = await client.query(
        `insert into sb_caller_calls (id, caller, expires_at)
         select $1, $2, now() + $3 * interval '1 millisecond'
         where (select count(*) from sb_caller_calls where caller = $2 and expires_at > now()) < $4
         returning id`,
        [id, caller, this.ttlMs, max],
      );
      await client.query(`delete from sb_caller_calls where caller = $1 and expires_at <= now()`, [caller]);
      await client.query('commit');
      taken = rows.length > 0;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw storeUnavailable(this.db.source, 'take a concurrent call slot', err);
    } finally {
      client.release();
    }
    if (!taken) return null;
    this.held.add(id);
    this.renewWhileHeld();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held.delete(id);
      if (this.held.size === 0) this.stopRenewing();
      // Unanswered, the slot expires by itself.
      this.db.query('free a concurrent call slot', 'delete from sb_caller_calls where id = $1', [id]).catch((err: unknown) => this.logger.warn('could not free a call slot; it expires by itself', { error: errorMessage(err) }));
    };
  }

  close(): void {
    this.stopRenewing();
  }

  private renewWhileHeld(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const ids = [...this.held];
      if (ids.length === 0) return;
      this.db
        .query('renew concurrent call slots', `update sb_caller_calls set expires_at = now() + $2 * interval '1 millisecond' where id = any($1)`, [ids, this.ttlMs])
        .catch((err: unknown) => this.logger.warn('could not renew call slots', { error: errorMessage(err) }));
    }, Math.max(50, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  private stopRenewing(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Once a minute per replica: windows before the previous one count nothing any more. */
  private pruneWindows(window: number): void {
    if (this.prunedWindow >= window) return;
    this.prunedWindow = window;
    this.db.query('prune old request windows', 'delete from sb_caller_requests where window_start < $1', [window - 1]).catch(() => {});
  }
}
