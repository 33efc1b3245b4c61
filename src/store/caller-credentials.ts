// Each caller's own upstream credentials (identity = "caller": the logins callers made through the
// gateway), and the logins still in progress. Sealed with the key in `[store] credentials_key_env_var`
// (the caller and the credential's name bound as associated data, so a sealed record cannot be moved to
// another caller), kept in files under $SWITCHBOARD_HOME or in PostgreSQL, so any replica can act for a
// caller who logged in through another, and a revocation is seen by every replica at its next call.
import { open as openSealed, seal } from './credentials.js';

/** One stored credential, as `switchboard credentials list` shows it (never its contents). */
export interface CallerCredentialSummary {
  caller: string;
  /** The server's name in config.toml. */
  server: string;
  updatedAt: string;
}

export interface CallerCredentialFilter {
  caller?: string;
  server?: string;
}

export interface CallerCredentialStore {
  /** The credential `name` (the server's store key) of `caller`, or undefined. */
  load(caller: string, name: string): Promise<unknown>;
  save(caller: string, server: string, name: string, value: unknown): Promise<void>;
  /** True when something was removed. */
  delete(caller: string, name: string): Promise<boolean>;
  /** When it was last saved (a cheap check made before every use: undefined once revoked). */
  stamp(caller: string, name: string): Promise<string | undefined>;
  list(filter?: CallerCredentialFilter): Promise<CallerCredentialSummary[]>;
  /** Remove every credential the filter matches; how many went. */
  revoke(filter: CallerCredentialFilter): Promise<number>;
  /** Hold the refresh lock of one credential across every replica until the returned release runs. */
  lock(caller: string, name: string): Promise<() => Promise<void>>;
  /** A login in progress, kept until `ttlMs` from now. */
  putLogin(id: string, record: unknown, ttlMs: number): Promise<void>;
  /** The login `id`, removed as it is read (single use); undefined when absent or expired. */
  takeLogin(id: string): Promise<unknown>;
}

/** Associated data of a sealed caller credential: which caller's, which credential. */
const aad = (caller: string, name: string) => `caller\u0000${caller}\u0000${name}`;
const loginAad = (id: string) => `login\u0000${id}`;

export function sealCredential(key: Buffer, caller: string, name: string, value: unknown): Buffer {
  return seal(key, aad(caller, name), JSON.stringify(value));
}

export function openCredential(key: Buffer, caller: string, name: string, sealed: Buffer): unknown {
  return JSON.parse(openSealed(key, aad(caller, name), sealed)) as unknown;
}

export function sealLogin(key: Buffer, id: string, record: unknown): Buffer {
  return seal(key, loginAad(id), JSON.stringify(record));
}

export function openLogin(key: Buffer, id: string, sealed: Buffer): unknown {
  return JSON.parse(openSealed(key, loginAad(id), sealed)) as unknown;
}

export function matches(filter: CallerCredentialFilter | undefined, caller: string, server: string): boolean {
  return (filter?.caller === undefined || filter.caller === caller) && (filter?.server === undefined || filter.server === server);
}
