// The PostgreSQL store: one pool per process, shared by every table's store.
import type { Store } from '../open-store.js';
import { Database, type DatabaseOptions } from './database.js';
import { PgSessionStore } from './pg-http-sessions.js';
import { PgCredentialStore } from './pg-credentials.js';
import { PgCallerCredentialStore } from './pg-caller-credentials.js';
import { PgSecrets } from './pg-secrets.js';
import { PgThreadLeases } from './pg-thread-leases.js';
import { PgThreadStore } from './pg-thread-store.js';
import { PgThreadOwnerStore } from './pg-thread-owners.js';
import { PgCallerLimits } from './pg-caller-limits.js';
import { PgAuditLog } from './pg-audit-log.js';

export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  readonly db: Database;
}

export async function openPostgresStore(options: DatabaseOptions & { leaseTtlMs?: number | undefined; callSlotTtlMs?: number | undefined; credentialKey?: Buffer | null }): Promise<PostgresStore> {
  const db = await Database.open(options);
  const secrets = new PgSecrets(db);
  const limits = new PgCallerLimits(db, options.logger, { slotTtlMs: options.callSlotTtlMs });
  const audit = new PgAuditLog(db, options.logger);
  const leases = new PgThreadLeases(db, { logger: options.logger, ...(options.leaseTtlMs !== undefined ? { ttlMs: options.leaseTtlMs } : {}) });
  return {
    kind: 'postgres',
    db,
    threads: new PgThreadStore(db),
    leases,
    httpSessions: (scope) => new PgSessionStore(db, scope),
    sharedSecret: (name, bytes) => secrets.get(name, bytes),
    credentials: options.credentialKey ? new PgCredentialStore(db, options.credentialKey, options.logger) : null,
    callerCredentials: options.credentialKey ? new PgCallerCredentialStore(db, options.credentialKey, options.logger) : null,
    threadOwners: new PgThreadOwnerStore(db),
    callerLimits: limits,
    audit,
    reachable: () =>
      db.query('check the database answers', 'select 1').then(
        () => true,
        () => false,
      ),
    close: async () => {
      leases.close();
      limits.close();
      await audit.flush();
      await db.close();
    },
  };
}
