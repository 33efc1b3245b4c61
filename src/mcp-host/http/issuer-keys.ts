// The authorization server's signing keys as a protected resource sees them: its metadata discovered
// once (RFC 8414 / OpenID configuration), its JWKS fetched and kept. A key set that cannot be fetched
// again (server down, garbage) never replaces the last good one, so tokens signed by known keys keep
// working; an unknown `kid` fetches again (rotation), at most once per cooldown.
import { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { errorMessage, SwitchboardError, type Logger } from '../../util/index.js';

export interface IssuerKeysOptions {
  issuer: string;
  /** Fetch the key set again after this long even without an unknown kid (retired keys drop out). */
  refreshMs?: number;
  /** Least time between two fetches caused by unknown kids (a flood of forged kids costs one fetch). */
  cooldownMs?: number;
  timeoutMs?: number;
  logger: Logger;
  fetchFn?: typeof fetch;
}

interface KeySet {
  jwks: JSONWebKeySet;
  getKey: JWTVerifyGetKey;
  kids: ReadonlySet<string>;
  fetchedAt: number;
}

/** The key set could not be fetched: the caller answers 503, not 401 (the token may well be good). */
export class KeysUnavailableError extends SwitchboardError {
  constructor(message: string, cause: unknown) {
    super('auth_keys_unavailable', message, { cause });
  }
}

export class IssuerKeys {
  private current: KeySet | undefined;
  private loading: Promise<KeySet> | undefined;
  private jwksUri: string | undefined;
  private lastAttempt = 0;
  private lastKidFetch = 0;
  private lastError: string | undefined;
  private readonly refreshMs: number;
  private readonly cooldownMs: number;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: IssuerKeysOptions) {
    this.refreshMs = options.refreshMs ?? 10 * 60_000;
    this.cooldownMs = options.cooldownMs ?? 10_000;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.fetchFn = options.fetchFn ?? fetch;
  }

  /** The keys to verify with now; a stale set is refreshed in the background, never waited for. */
  async keys(): Promise<KeySet> {
    const current = this.current;
    if (!current) return this.reload();
    if (Date.now() - current.fetchedAt > this.refreshMs && Date.now() - this.lastAttempt > this.cooldownMs) void this.reload().catch(() => {});
    return current;
  }

  /** The key set has no key for `kid`: fetch again unless that was just tried. */
  async unknownKid(kid: string | undefined): Promise<KeySet | undefined> {
    if (Date.now() - this.lastKidFetch < this.cooldownMs) {
      if (this.lastError !== undefined) throw new KeysUnavailableError(this.unavailableText(kid), undefined);
      return undefined;
    }
    this.lastKidFetch = Date.now();
    return this.reload().catch((err: unknown) => {
      throw new KeysUnavailableError(this.unavailableText(kid), err);
    });
  }

  /** True when the key that signed a token is still in the set (a retired key voids cached tokens). */
  holds(kid: string | undefined): boolean {
    return kid === undefined || (this.current?.kids.has(kid) ?? false);
  }

  private unavailableText(kid: string | undefined): string {
    return `the token is signed by a key${kid ? ` (kid ${kid})` : ''} this server does not know, and the signing keys of ${this.options.issuer} cannot be fetched: ${this.lastError ?? 'unknown error'}`;
  }

  private reload(): Promise<KeySet> {
    this.loading ??= this.fetchKeys().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async fetchKeys(): Promise<KeySet> {
    this.lastAttempt = Date.now();
    try {
      this.jwksUri ??= await this.discover();
      const response = await this.fetchFn(this.jwksUri, { signal: AbortSignal.timeout(this.timeoutMs), headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`${this.jwksUri} answered HTTP ${response.status}`);
      const body = (await response.json().catch(() => undefined)) as unknown;
      const jwks = checkedKeySet(body, this.jwksUri);
      const set: KeySet = { jwks, getKey: createLocalJWKSet(jwks), kids: new Set(jwks.keys.flatMap((k) => (typeof k.kid === 'string' ? [k.kid] : []))), fetchedAt: Date.now() };
      this.current = set;
      this.lastError = undefined;
      return set;
    } catch (err) {
      // undici says only "fetch failed"; the reason (refused, reset) is its cause.
      const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
      this.lastError = `${errorMessage(err)}${cause}`;
      this.options.logger.warn('server auth: fetching the signing keys failed; the last good keys stay in use', { issuer: this.options.issuer, error: this.lastError });
      throw err;
    }
  }

  private async discover(): Promise<string> {
    const fetchFn = (url: string | URL, init?: RequestInit) => this.fetchFn(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    const metadata = await discoverAuthorizationServerMetadata(this.options.issuer, { fetchFn });
    if (!metadata) throw new Error(`no authorization server metadata at ${this.options.issuer} (RFC 8414 or OpenID configuration)`);
    const uri = (metadata as { jwks_uri?: unknown }).jwks_uri;
    if (typeof uri !== 'string' || URL.parse(uri) === null) throw new Error(`the metadata of ${this.options.issuer} names no jwks_uri`);
    return uri;
  }
}

function checkedKeySet(body: unknown, uri: string): JSONWebKeySet {
  const keys = (body as { keys?: unknown } | undefined)?.keys;
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'object' && k !== null && typeof (k as { kty?: unknown }).kty === 'string')) {
    throw new Error(`${uri} did not return a JSON Web Key Set ({"keys": [...]})`);
  }
  return { keys } as JSONWebKeySet;
}
