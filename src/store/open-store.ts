// Choosing the store a process keeps its shared state in: files under $SWITCHBOARD_HOME (the
// default), or PostgreSQL when `[store] postgres_url_env_var` names a variable holding its URL.
import { importOptional, nullLogger, type Logger } from '../util/index.js';
import { FileThreadStore } from './file-thread-store.js';
import { credentialsKey, type CredentialStore } from './credentials.js';
import type { SessionStore } from './http-sessions.js';
import { LocalThreadLeases, type ThreadLeases } from './thread-leases.js';
import { urlNotSet } from './store-errors.js';
import type { ThreadStore } from './thread-store.js';
import { FileThreadOwnerStore, threadOwnersFile, type ThreadOwnerStore } from './thread-owners.js';
import type { SharedLimitCounters } from './caller-limits.js';
import type { AuditLog } from './audit-log.js';
import type { CallerCredentialStore } from './caller-credentials.js';
import { FileCallerCredentialStore } from './file-caller-credentials.js';

/** `[store]` in config.toml. */
export interface StoreSettings {
  postgres_url_env_var: string | null;
  /** With PostgreSQL: the variable holding the key that seals shared OAuth credentials; null keeps them per machine. */
  credentials_key_env_var?: string | null;
}

/** Everything a process shares with its replicas (with the file store: with later runs of itself). */
export interface Store {
  readonly kind: 'files' | 'postgres';
  readonly threads: ThreadStore;
  /** One turn per thread at a time: in this process (files) or across replicas (PostgreSQL). */
  readonly leases: ThreadLeases;
  /** 2025 HTTP sessions shared by the replicas of one endpoint (`scope`); null: each process keeps its own. */
  httpSessions(scope: string): SessionStore | null;
  /**
   * A secret shared by every replica (created by the first that asks), such as the key that protects
   * request state handed to clients; null with the file store (a process keeps its own).
   */
  sharedSecret(name: string, bytes?: number): Promise<Buffer> | null;
  /** Upstream OAuth credentials shared by the replicas, sealed; null: each machine's keyring or file, as without a store. */
  readonly credentials: CredentialStore | null;
  /**
   * Each caller's own upstream credentials (identity = "caller" logins), sealed with the key in
   * `[store] credentials_key_env_var`: in files under $SWITCHBOARD_HOME or in PostgreSQL. Null without that key.
   */
  readonly callerCredentials: CallerCredentialStore | null;
  /** Who started each agent thread ([server_auth]): a file under $SWITCHBOARD_HOME, or a table every replica reads. */
  readonly threadOwners: ThreadOwnerStore;
  /** [server_auth.limits] counted across replicas; null: each process counts its own callers. */
  readonly callerLimits: SharedLimitCounters | null;
  /** The audit trail in the store; null: the rotating file under $SWITCHBOARD_HOME/log. */
  readonly audit: AuditLog | null;
  /** The store answers now (readiness probes); the file store always does. */
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** $SWITCHBOARD_HOME, where the file store keeps its files. */
  home: string;
  settings: StoreSettings;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Shared leases: how long one outlives its replica's last renewal (default 7 s). */
  leaseTtlMs?: number;
  /** Shared concurrent-call slots: how long one outlives its replica's last renewal (default 30 s). */
  callSlotTtlMs?: number;
}

/** The file store; `credentialKey` (from `[store] credentials_key_env_var`) lets it keep callers' credentials. */
export function fileStore(home: string, credentialKey: Buffer | null = null): Store {
  return {
    kind: 'files',
    threads: new FileThreadStore(home),
    leases: new LocalThreadLeases(),
    httpSessions: () => null,
    sharedSecret: () => null,
    credentials: null,
    callerCredentials: credentialKey ? new FileCallerCredentialStore(home, credentialKey) : null,
    threadOwners: new FileThreadOwnerStore(threadOwnersFile(home)),
    callerLimits: null,
    audit: null,
    reachable: async () => true,
    close: async () => {},
  };
}

/** Open the configured store; with PostgreSQL, connect and migrate now or fail naming the variable. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const envVar = options.settings.postgres_url_env_var;
  const keyVar = options.settings.credentials_key_env_var ?? null;
  // Checked before connecting: a replica without the key must not start and write unsealed state.
  const credentialKey = keyVar === null ? null : credentialsKey(keyVar, options.env ?? process.env);
  if (envVar === null) return fileStore(options.home, credentialKey);
  const url = (options.env ?? process.env)[envVar];
  if (url === undefined || url.trim() === '') throw urlNotSet({ envVar });
  // Loaded only here: the file store never pays for the pg driver at start-up.
  const { openPostgresStore } = await importOptional(`The PostgreSQL store ([store] postgres_url_env_var = "${envVar}")`, ['pg'], () => import('./postgres/pg-store.js'));
  return openPostgresStore({ source: { envVar }, url, logger: options.logger ?? nullLogger, leaseTtlMs: options.leaseTtlMs, callSlotTtlMs: options.callSlotTtlMs, credentialKey });
}
