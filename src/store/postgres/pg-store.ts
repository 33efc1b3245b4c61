// The PostgreSQL store: one pool per process, shared by every table's store.
import type { Store } from '../open-store.js';
import { Database, type DatabaseOptions } from './database.js';
import { PgThreadLeases } from './pg-thread-leases.js';
import { PgThreadStore } from './pg-thread-store.js';

export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  readonly db: Database;
}

export async function openPostgresStore(options: DatabaseOptions & { leaseTtlMs?: number | undefined }): Promise<PostgresStore> {
  const db = await Database.open(options);
  const leases = new PgThreadLeases(db, { logger: options.logger, ...(options.leaseTtlMs !== undefined ? { ttlMs: options.leaseTtlMs } : {}) });
  return {
    kind: 'postgres',
    db,
    threads: new PgThreadStore(db),
    leases,
    close: async () => {
      leases.close();
      await db.close();
    },
  };
}
