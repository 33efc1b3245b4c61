// The PostgreSQL schema as numbered migrations, applied in order at start inside one transaction
// under an advisory lock, so replicas starting together apply each migration exactly once.
import type { PoolClient } from 'pg';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Append-only: a released migration is never edited; a change is a new version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'threads and their records',
    sql: `
      create table sb_threads (
        id text primary key,
        created_at timestamptz not null,
        updated_at timestamptz not null default now(),
        record_count bigint not null default 0
      );
      create index sb_threads_created_at on sb_threads (created_at desc, id desc);
      create table sb_thread_records (
        thread_id text not null references sb_threads (id),
        seq bigint not null,
        record text not null,
        primary key (thread_id, seq)
      );`,
  },
  {
    version: 2,
    name: 'thread leases',
    sql: `
      create table sb_thread_leases (
        thread_id text primary key,
        owner text not null,
        acquired_at timestamptz not null default now(),
        expires_at timestamptz not null
      );`,
  },
  {
    version: 3,
    name: 'http sessions, their events, shared secrets',
    sql: `
      create table sb_http_sessions (
        scope text not null,
        id text not null,
        initialize text not null,
        created_at timestamptz not null default now(),
        last_seen timestamptz not null default now(),
        primary key (scope, id)
      );
      create index sb_http_sessions_last_seen on sb_http_sessions (last_seen);
      create table sb_http_events (
        seq bigserial primary key,
        scope text not null,
        session_id text not null,
        stream_id text not null,
        message text not null
      );
      create index sb_http_events_session on sb_http_events (scope, session_id, seq);
      create table sb_secrets (
        name text primary key,
        value bytea not null,
        created_at timestamptz not null default now()
      );`,
  },
  {
    version: 4,
    name: 'sealed OAuth credentials',
    sql: `
      create table sb_oauth_credentials (
        name text primary key,
        sealed bytea not null,
        updated_at timestamptz not null default now()
      );`,
  },
  {
    version: 5,
    name: 'the caller that opened each http session',
    sql: `alter table sb_http_sessions add column owner text;`,
  },
  {
    version: 6,
    name: 'server_auth: thread owners, per-caller limits, the audit trail',
    sql: `
      create table sb_thread_owners (
        thread_id text primary key,
        owner text not null,
        recorded_at timestamptz not null default now()
      );
      create table sb_caller_requests (
        caller text not null,
        window_start bigint not null,
        count integer not null,
        primary key (caller, window_start)
      );
      create table sb_caller_calls (
        id text primary key,
        caller text not null,
        expires_at timestamptz not null
      );
      create index sb_caller_calls_caller on sb_caller_calls (caller, expires_at);
      create table sb_audit (
        seq bigserial primary key,
        time timestamptz not null,
        subject text,
        client_id text,
        method text not null,
        tool text,
        upstream text,
        outcome text not null,
        error_code integer,
        duration_ms double precision not null,
        session text
      );
      create index sb_audit_time on sb_audit (time);
      create index sb_audit_subject on sb_audit (subject, time);
      create index sb_audit_client_id on sb_audit (client_id, time);`,
  },
  {
    version: 7,
    name: 'callers\' own upstream credentials, logins in progress, the identity each call used',
    sql: `
      create table sb_caller_credentials (
        caller text not null,
        name text not null,
        server text not null,
        sealed bytea not null,
        updated_at timestamptz not null default clock_timestamp(),
        primary key (caller, name)
      );
      create index sb_caller_credentials_server on sb_caller_credentials (server);
      create table sb_upstream_logins (
        id text primary key,
        sealed bytea not null,
        expires_at timestamptz not null
      );
      alter table sb_audit add column identity text;`,
  },
];

// Any constant works; it only has to be the same in every replica (`hashtext('switchboard migrations')`).
const MIGRATION_LOCK = 0x5b_57_4d_31;

/** Bring the schema up to date; returns the versions applied now. */
export async function migrate(client: PoolClient): Promise<number[]> {
  const applied: number[] = [];
  await client.query('begin');
  try {
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`create table if not exists sb_schema_migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`);
    const done = new Set((await client.query<{ version: number }>('select version from sb_schema_migrations')).rows.map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('insert into sb_schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
  return applied;
}
