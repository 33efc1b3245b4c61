// The PostgreSQL store: one pool per process, shared by every table's store.
import type { Store } from '../open-store.js';
import { Database, type DatabaseOptions } from './database.js';
import { PgThreadStore } from './pg-thread-store.js';

export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  readonly db: Database;
}

export async function openPostgresStore(options: DatabaseOptions): Promise<PostgresStore> {
  const db = await Database.open(options);
  return { kind: 'postgres', db, threads: new PgThreadStore(db), close: () => db.close() };
}
