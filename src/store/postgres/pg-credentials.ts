// OAuth credentials in PostgreSQL, sealed with AES-256-GCM before they leave the process; the
// refresh lock is a session advisory lock, so a replica that dies mid-refresh frees it with its connection.
import type { Logger } from '../../util/index.js';
import { open, seal, type CredentialStore } from '../credentials.js';
import { advisoryLock } from './pg-advisory-lock.js';
import type { Database } from './database.js';

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

  lock(name: string): Promise<() => Promise<void>> {
    return advisoryLock(this.db, `oauth:${name}`, 'OAuth refresh lock', this.logger);
  }
}
