// The audit trail in PostgreSQL: records queued by the request path and written in batches (one
// statement each), kept for a bounded time (30 days by default: never read after, deleted hourly).
import { errorMessage, type Logger } from '../../util/index.js';
import type { AuditLog, StoredAuditRecord } from '../audit-log.js';
import type { Database } from './database.js';

export const DEFAULT_AUDIT_RETENTION_DAYS = 30;
const BATCH = 500;
/** Records waiting for the database beyond this are dropped (and the drop logged): memory stays bounded. */
const MAX_QUEUED = 10_000;
const FLUSH_DELAY_MS = 200;
const PRUNE_EVERY_MS = 60 * 60_000;

interface AuditRow {
  time: Date;
  subject: string | null;
  client_id: string | null;
  method: string;
  tool: string | null;
  upstream: string | null;
  identity: string | null;
  outcome: string;
  error_code: number | null;
  duration_ms: number;
  session: string | null;
}

export class PgAuditLog implements AuditLog {
  private queue: StoredAuditRecord[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;
  private prunedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly retentionDays = DEFAULT_AUDIT_RETENTION_DAYS,
  ) {}

  append(record: StoredAuditRecord): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.dropped += 1;
      return;
    }
    this.queue.push(record);
    if (this.queue.length >= BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.writeQueued());
    return this.writing;
  }

  async tail(options: { caller?: string; limit: number }): Promise<StoredAuditRecord[]> {
    const columns = 'time, subject, client_id, method, tool, upstream, identity, outcome, error_code, duration_ms, session';
    // Newest by the request's time (replicas write in batches, so insertion order interleaves them).
    // Two shapes, so each uses its index; rows past the retention are never shown, pruned yet or not.
    const kept = `time >= now() - $1 * interval '1 day'`;
    const { rows } =
      options.caller === undefined
        ? await this.db.query<AuditRow>('read the audit trail', `select ${columns} from sb_audit where ${kept} order by time desc, seq desc limit $2`, [this.retentionDays, options.limit])
        : await this.db.query<AuditRow>(
            'read the audit trail',
            `select ${columns} from (
               (select seq, ${columns} from sb_audit where subject = $3 and ${kept} order by time desc, seq desc limit $2)
               union (select seq, ${columns} from sb_audit where client_id = $3 and ${kept} order by time desc, seq desc limit $2)) r
             order by time desc, seq desc limit $2`,
            [this.retentionDays, options.limit, options.caller],
          );
    return rows.reverse().map(toRecord);
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      try {
        await this.db.query(
          'write audit records',
          `insert into sb_audit (time, subject, client_id, method, tool, upstream, outcome, error_code, duration_ms, session, identity)
           select * from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::integer[], $9::double precision[], $10::text[], $11::text[])`,
          [
            batch.map((r) => r.time),
            batch.map((r) => r.subject),
            batch.map((r) => r.client_id),
            batch.map((r) => r.method),
            batch.map((r) => r.tool ?? null),
            batch.map((r) => r.upstream ?? null),
            batch.map((r) => r.outcome),
            batch.map((r) => r.error_code ?? null),
            batch.map((r) => r.duration_ms),
            batch.map((r) => r.session ?? null),
            batch.map((r) => r.identity ?? null),
          ],
        );
      } catch (err) {
        this.logger.warn('audit records could not be written to the store; they are lost', { records: batch.length, error: errorMessage(err) });
      }
    }
    if (this.dropped > 0) {
      this.logger.warn('audit records were dropped while the store was behind', { records: this.dropped });
      this.dropped = 0;
    }
    await this.prune();
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.db
      .query('prune the audit trail', `delete from sb_audit where time < now() - $1 * interval '1 day'`, [this.retentionDays])
      .catch((err: unknown) => this.logger.warn('could not prune the audit trail', { error: errorMessage(err) }));
  }
}

function toRecord(row: AuditRow): StoredAuditRecord {
  return {
    time: row.time.toISOString(),
    subject: row.subject,
    client_id: row.client_id,
    method: row.method,
    ...(row.tool !== null ? { tool: row.tool } : {}),
    ...(row.upstream !== null ? { upstream: row.upstream } : {}),
    ...(row.identity !== null ? { identity: row.identity } : {}),
    outcome: row.outcome,
    ...(row.error_code !== null ? { error_code: row.error_code } : {}),
    duration_ms: row.duration_ms,
    ...(row.session !== null ? { session: row.session } : {}),
  };
}
