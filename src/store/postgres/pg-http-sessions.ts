// 2025 HTTP sessions in PostgreSQL, per scope (one per product endpoint): `sb_http_sessions` holds
// each session's initialize request, `sb_http_events` its SSE events for Last-Event-ID, bounded per
// session like the memory store (oldest first, the newest always kept).
import type { SessionStore, StoredEventLog, StoredSessionRecord } from '../http-sessions.js';
import type { Database } from './database.js';

export const PG_EVENT_LIMIT = 10_000;
export const PG_EVENT_BYTES = 4 * 1024 * 1024;
/** Trim a session's events every this many stores (a trim is one statement). */
const TRIM_EVERY = 64;

class PgEventLog implements StoredEventLog {
  private stored = 0;

  constructor(
    private readonly db: Database,
    private readonly scope: string,
    private readonly sessionId: string,
    private readonly limits: { count: number; bytes: number },
  ) {}

  async storeEvent(streamId: string, message: unknown): Promise<string> {
    const { rows } = await this.db.query<{ seq: string }>(
      'keep an SSE event',
      'insert into sb_http_events (scope, session_id, stream_id, message) values ($1, $2, $3, $4) returning seq',
      [this.scope, this.sessionId, streamId, JSON.stringify(message)],
    );
    this.stored += 1;
    if (this.stored % TRIM_EVERY === 0) await this.trim();
    return rows[0]!.seq;
  }

  /** Drop the oldest events past the count or byte bound; the newest always stays. */
  async trim(): Promise<void> {
    await this.db.query(
      'trim SSE events',
      `delete from sb_http_events e using (
         select seq from (
           select seq, row_number() over w as n, sum(length(message)) over w as bytes
           from sb_http_events where scope = $1 and session_id = $2 window w as (order by seq desc)) x
         where n > 1 and (n > $3 or bytes > $4)) old
       where e.seq = old.seq`,
      [this.scope, this.sessionId, this.limits.count, this.limits.bytes],
    );
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    if (!/^\d{1,18}$/.test(eventId)) return undefined;
    const { rows } = await this.db.query<{ stream_id: string }>(
      'find an SSE event',
      'select stream_id from sb_http_events where scope = $1 and session_id = $2 and seq = $3',
      [this.scope, this.sessionId, eventId],
    );
    return rows[0]?.stream_id;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: unknown) => Promise<void> }): Promise<string> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) throw new Error(`event ${lastEventId} is unknown or no longer kept`);
    const { rows } = await this.db.query<{ seq: string; message: string }>(
      'replay SSE events',
      'select seq, message from sb_http_events where scope = $1 and session_id = $2 and stream_id = $3 and seq > $4 order by seq',
      [this.scope, this.sessionId, streamId, lastEventId],
    );
    for (const row of rows) await send(row.seq, JSON.parse(row.message) as unknown);
    return streamId;
  }

  clear(): void {}
}

export class PgSessionStore implements SessionStore {
  constructor(
    private readonly db: Database,
    readonly scope: string,
    private readonly limits = { count: PG_EVENT_LIMIT, bytes: PG_EVENT_BYTES },
  ) {}

  async save(record: StoredSessionRecord): Promise<void> {
    await this.db.query(
      'share the session',
      'insert into sb_http_sessions (scope, id, initialize, owner) values ($1, $2, $3, $4) on conflict (scope, id) do update set initialize = excluded.initialize, owner = excluded.owner, last_seen = now()',
      [this.scope, record.id, JSON.stringify(record.initialize), record.owner ?? null],
    );
  }

  async load(id: string): Promise<StoredSessionRecord | null> {
    const { rows } = await this.db.query<{ initialize: string; owner: string | null }>('read the session', 'select initialize, owner from sb_http_sessions where scope = $1 and id = $2', [this.scope, id]);
    const row = rows[0];
    return row ? { id, initialize: JSON.parse(row.initialize) as unknown, ...(row.owner !== null ? { owner: row.owner } : {}) } : null;
  }

  async touch(id: string): Promise<void> {
    await this.db.query('mark the session used', 'update sb_http_sessions set last_seen = now() where scope = $1 and id = $2', [this.scope, id]);
  }

  async delete(id: string): Promise<void> {
    await this.db.query(
      'delete the session',
      `with s as (delete from sb_http_sessions where scope = $1 and id = $2) delete from sb_http_events where scope = $1 and session_id = $2`,
      [this.scope, id],
    );
  }

  async expire(idleMs: number): Promise<void> {
    await this.db.query(
      'expire idle sessions',
      `with gone as (delete from sb_http_sessions where scope = $1 and last_seen < now() - $2 * interval '1 millisecond' returning id)
       delete from sb_http_events where scope = $1 and session_id in (select id from gone)`,
      [this.scope, idleMs],
    );
  }

  events(sessionId: string): StoredEventLog {
    return new PgEventLog(this.db, this.scope, sessionId, this.limits);
  }
}
