// Threads in PostgreSQL: `sb_threads` is the index (id, creation time, record count) and
// `sb_thread_records` holds each thread's records, append-only, numbered from 1 per thread.
import { SwitchboardError } from '../../util/index.js';
import { THREAD_ID, type StoredThread, type ThreadLog, type ThreadStore, type ThreadSummary } from '../thread-store.js';
import type { Database } from './database.js';

export function pgThreadLocation(threadId: string): string {
  return `postgres:threads/${threadId}`;
}

// One statement, so one round trip and atomic: the counter moves and the records land together.
const APPEND = `
  with t as (
    update sb_threads set record_count = record_count + cardinality($2::text[]), updated_at = now()
    where id = $1 returning record_count - cardinality($2::text[]) as base)
  insert into sb_thread_records (thread_id, seq, record)
  select $1, t.base + r.ord, r.record from t, unnest($2::text[]) with ordinality as r(record, ord)`;

class PgThreadLog implements ThreadLog {
  readonly location: string;

  constructor(
    private readonly db: Database,
    private readonly threadId: string,
  ) {
    this.location = pgThreadLocation(threadId);
  }

  async append(records: readonly string[]): Promise<void> {
    if (records.length === 0) return;
    const result = await this.db.query('append to the thread', APPEND, [this.threadId, records]);
    if (result.rowCount !== records.length) {
      throw new SwitchboardError('thread_not_found', `thread ${this.threadId} is not in the PostgreSQL store; its records were not saved`);
    }
  }

  async close(): Promise<void> {}
}

export class PgThreadStore implements ThreadStore {
  constructor(private readonly db: Database) {}

  describe(): string {
    return `in the PostgreSQL store ($${this.db.source.envVar})`;
  }

  async create(threadId: string, createdAt: Date, first: string): Promise<ThreadLog> {
    if (!THREAD_ID.test(threadId)) throw new SwitchboardError('invalid_thread_id', `invalid thread id ${JSON.stringify(threadId)}`);
    const inserted = await this.db.query(
      'create the thread',
      `with t as (insert into sb_threads (id, created_at, record_count) values ($1, $2, 1) on conflict (id) do nothing returning id)
       insert into sb_thread_records (thread_id, seq, record) select id, 1, $3 from t`,
      [threadId, createdAt, first],
    );
    if (inserted.rowCount !== 1) throw new SwitchboardError('thread_exists', `thread ${threadId} already exists ${this.describe()}`);
    return new PgThreadLog(this.db, threadId);
  }

  async load(threadId: string): Promise<StoredThread | null> {
    if (!THREAD_ID.test(threadId)) return null;
    // Records and count in one snapshot, so a concurrent append is either wholly in or wholly out.
    const { rows } = await this.db.query<{ record: string | null }>(
      'read the thread',
      `select r.record from sb_threads t left join sb_thread_records r on r.thread_id = t.id
       where t.id = $1 order by r.seq`,
      [threadId],
    );
    if (rows.length === 0) return null;
    const records = rows.filter((r) => r.record !== null).map((r) => `${r.record}\n`);
    return {
      location: pgThreadLocation(threadId),
      text: records.join(''),
      records: records.length,
      reopen: async () => new PgThreadLog(this.db, threadId),
    };
  }

  async list(options: { limit?: number } = {}): Promise<ThreadSummary[]> {
    const { rows } = await this.db.query<{ id: string; created_at: Date }>(
      'list threads',
      'select id, created_at from sb_threads order by created_at desc, id desc limit $1',
      [options.limit ?? null],
    );
    return rows.map((r) => ({ id: r.id, createdAt: r.created_at, location: pgThreadLocation(r.id) }));
  }
}
