// Secrets every replica must hold the same of (the key that protects request state handed to
// clients): the first replica to ask creates it, every later one reads that one.
import { randomBytes } from 'node:crypto';
import type { Database } from './database.js';

export class PgSecrets {
  constructor(private readonly db: Database) {}

  /** The secret `name` (`bytes` random bytes when it is created). */
  async get(name: string, bytes = 32): Promise<Buffer> {
    // One statement: the insert wins, or the row another replica inserted first is read. A row
    // committed while this statement waited on it is outside its snapshot: the next try reads it.
    for (let attempt = 0; ; attempt += 1) {
      const { rows } = await this.db.query<{ value: Buffer }>(
        'read a shared secret',
        `with ins as (insert into sb_secrets (name, value) values ($1, $2) on conflict (name) do nothing returning value)
         select value from ins union all select value from sb_secrets where name = $1 limit 1`,
        [name, randomBytes(bytes)],
      );
      if (rows[0]) return rows[0].value;
      if (attempt >= 2) throw new Error(`shared secret ${name} was neither created nor found`);
    }
  }
}
