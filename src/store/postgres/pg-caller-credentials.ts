// Callers' upstream credentials in PostgreSQL, sealed before they leave the process; every replica
// reads the same rows, so a login through one replica serves the caller on all of them and a
// revocation is seen by each at its next call. Logins in progress are rows taken with one delete.
import type { Logger } from '../../util/index.js';
import {
  openCredential,
  openLogin,
  sealCredential,
  sealLogin,
  type CallerCredentialFilter,
  type CallerCredentialStore,
  type CallerCredentialSummary,
} from '../caller-credentials.js';
import { advisoryLock } from './pg-advisory-lock.js';
import type { Database } from './database.js';

/** `where` for a filter: the clause and its values, numbered from $1. */
function where(filter: CallerCredentialFilter | undefined): { clause: string; values: string[] } {
  const parts: string[] = [];
  const values: string[] = [];
  if (filter?.caller !== undefined) parts.push(`caller = $${values.push(filter.caller)}`);
  if (filter?.server !== undefined) parts.push(`server = $${values.push(filter.server)}`);
  return { clause: parts.length > 0 ? `where ${parts.join(' and ')}` : '', values };
}

export class PgCallerCredentialStore implements CallerCredentialStore {
  constructor(
    private readonly db: Database,
    private readonly key: Buffer,
    private readonly logger: Logger,
  ) {}

  async load(caller: string, name: string): Promise<unknown> {
    const { rows } = await this.db.query<{ sealed: Buffer }>('read a caller credential', 'select sealed from sb_caller_credentials where caller = $1 and name = $2', [caller, name]);
    return rows[0] ? openCredential(this.key, caller, name, rows[0].sealed) : undefined;
  }

  async save(caller: string, server: string, name: string, value: unknown): Promise<void> {
    await this.db.query(
      'save a caller credential',
      `insert into sb_caller_credentials (caller, name, server, sealed) values ($1, $2, $3, $4)
       on conflict (caller, name) do update set sealed = excluded.sealed, server = excluded.server, updated_at = clock_timestamp()`,
      [caller, name, server, sealCredential(this.key, caller, name, value)],
    );
  }

  async delete(caller: string, name: string): Promise<boolean> {
    const { rowCount } = await this.db.query('delete a caller credential', 'delete from sb_caller_credentials where caller = $1 and name = $2', [caller, name]);
    return (rowCount ?? 0) > 0;
  }

  async stamp(caller: string, name: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ stamp: string }>(
      'check a caller credential',
      `select extract(epoch from updated_at)::text as stamp from sb_caller_credentials where caller = $1 and name = $2`,
      [caller, name],
    );
    return rows[0]?.stamp;
  }

  async list(filter?: CallerCredentialFilter): Promise<CallerCredentialSummary[]> {
    const { clause, values } = where(filter);
    const { rows } = await this.db.query<{ caller: string; server: string; updated_at: Date }>(
      'list caller credentials',
      `select caller, server, updated_at from sb_caller_credentials ${clause} order by caller, server`,
      values,
    );
    return rows.map((r) => ({ caller: r.caller, server: r.server, updatedAt: r.updated_at.toISOString() }));
  }

  async revoke(filter: CallerCredentialFilter): Promise<number> {
    const { clause, values } = where(filter);
    const { rowCount } = await this.db.query('revoke caller credentials', `delete from sb_caller_credentials ${clause}`, values);
    return rowCount ?? 0;
  }

  lock(caller: string, name: string): Promise<() => Promise<void>> {
    // PostgreSQL text holds no NUL: the pair as JSON, which no other pair spells the same.
    return advisoryLock(this.db, `caller:${JSON.stringify([caller, name])}`, 'caller credential refresh lock', this.logger);
  }

  async putLogin(id: string, record: unknown, ttlMs: number): Promise<void> {
    await this.db.query('start a caller login', `delete from sb_upstream_logins where expires_at < clock_timestamp()`);
    await this.db.query(
      'start a caller login',
      `insert into sb_upstream_logins (id, sealed, expires_at) values ($1, $2, clock_timestamp() + make_interval(secs => $3))`,
      [id, sealLogin(this.key, id, record), ttlMs / 1000],
    );
  }

  async takeLogin(id: string): Promise<unknown> {
    const { rows } = await this.db.query<{ sealed: Buffer; live: boolean }>(
      'finish a caller login',
      'delete from sb_upstream_logins where id = $1 returning sealed, expires_at > clock_timestamp() as live',
      [id],
    );
    const row = rows[0];
    return row?.live ? openLogin(this.key, id, row.sealed) : undefined;
  }
}
