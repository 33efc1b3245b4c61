// OAuth credentials in PostgreSQL, sealed with AES-256-GCM before they leave the process; the
// refresh lock is a session advisory lock, so a replica that dies mid-refresh frees it with its connection.
import { errorMessage, type Logger } from '../../util/index.js';
import { open, seal, type CredentialStore } from '../credentials.js';
import { storeUnavailable } from '../store-errors.js';
import type { Database } from './database.js';

/** How long a replica waits for another's refresh before giving up (it then fails that request). */
const LOCK_WAIT_MS = 10_000;

export class PgCredentialStore implements CredentialStore {
  constructor(
    private readonly db: Database,
    private readonly key: Buffer,
    private readonly logger: Logger,
  ) {}

  async load(name: string): Promise<unknown> {
    const { rows } = await this.db.query<{ sealed: Buffer }>('read OAuth credentials', 'select sealed from sb_oauth_credentials where name = $1', [name]);
    return rows[0] ? (JSON.parse(open(this.key, name, rows[0].sealed)) as unknown) : undefined;
  }

  async save(name: string, value: unknown): Promise<void> {
    await this.db.query(
      'save OAuth credentials',
      `insert into sb_oauth_credentials (name, sealed) values ($1, $2)
       on conflict (name) do update set sealed = excluded.sealed, updated_at = now()`,
      [name, seal(this.key, name, JSON.stringify(value))],
    );
  }

  async delete(name: string): Promise<boolean> {
    const { rowCount } = await this.db.query('delete OAuth credentials', 'delete from sb_oauth_credentials where name = $1', [name]);
    return (rowCount ?? 0) > 0;
  }

  async lock(name: string): Promise<() => Promise<void>> {
    let client;
    try {
      client = await this.db.pool.connect();
    } catch (err) {
      throw storeUnavailable(this.db.source, 'take the OAuth refresh lock', err);
    }
    try {
      await client.query(`set lock_timeout = ${LOCK_WAIT_MS}`);
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [`oauth:${name}`]);
    } catch (err) {
      client.release(true);
      throw storeUnavailable(this.db.source, 'take the OAuth refresh lock', err);
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [`oauth:${name}`]);
        client.release();
      } catch (err) {
        // Dropping the connection frees the lock as well.
        this.logger.warn('could not release the OAuth refresh lock; dropping its connection', { error: errorMessage(err) });
        client.release(true);
      }
    };
  }
}
