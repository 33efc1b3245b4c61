// Thread owners shared by replicas: one row per owned thread; the first owner recorded stays.
import type { ThreadOwnerStore } from '../thread-owners.js';
import type { Database } from './database.js';

export class PgThreadOwnerStore implements ThreadOwnerStore {
  constructor(private readonly db: Database) {}

  async record(threadId: string, owner: string): Promise<void> {
    await this.db.query('record a thread owner', 'insert into sb_thread_owners (thread_id, owner) values ($1, $2) on conflict (thread_id) do nothing', [threadId, owner]);
  }

  async ownerOf(threadId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ owner: string }>('read a thread owner', 'select owner from sb_thread_owners where thread_id = $1', [threadId]);
    return rows[0]?.owner ?? null;
  }
}
