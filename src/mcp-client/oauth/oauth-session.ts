// Per-server OAuth state shared by every connection to that server in this process: the stored
// credentials, cached discovery, and the refresh gate that lets a one-time refresh token be used
// once (in-process mutex + cross-process file lock, or the shared store's lock across replicas;
// store re-read after the lock is taken).
import type { DpopAlg, DpopSession, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { AsyncMutex, acquireFileLock, errorMessage, type FileRelease, type Logger, type Release } from '../../util/index.js';
import { accessTokenExpiring, expiresAtFrom, oauthStoreKey, type StoredOAuthCredentials } from './credentials.js';
import { createDpopKey, dpopSessionFor, sameDpopKey, type StoredDpopKey } from './dpop-key.js';
import type { TokenStore } from './token-store.js';

/** Refresh when the access token expires within this window. */
export const DEFAULT_REFRESH_SKEW_MS = 60_000;
/** An SDK-driven refresh that never reported back releases the gate after this long. */
const SDK_REFRESH_GATE_TIMEOUT_MS = 20_000;

export interface OAuthSessionOptions {
  serverName: string;
  serverUrl: string;
  store: TokenStore;
  /** Cross-process lock file taken while refreshing; null for process-local stores. */
  lockPath: string | null;
  /** A lock across machines (the shared store's), taken instead of the lock file. */
  sharedLock?: ((storeKey: string) => Promise<() => Promise<void>>) | undefined;
  logger: Logger;
  now?: () => number;
  refreshSkewMs?: number;
}

/** One server's OAuth state in this process: stored credentials, cached discovery, and the refresh gate. */
export class OAuthSession {
  readonly serverName: string;
  readonly serverUrl: string;
  readonly storeKey: string;
  readonly logger: Logger;
  readonly now: () => number;
  readonly refreshSkewMs: number;
  /** In-memory only: the SDK asks for it to persist as long as the code verifier does. */
  private discovery: OAuthDiscoveryState | undefined;
  /** The PRM location seen during discovery; persisted with the tokens. */
  resourceMetadataUrl: string | undefined;
  private readonly store: TokenStore;
  private readonly lockPath: string | null;
  private readonly sharedLock: OAuthSessionOptions['sharedLock'];
  private readonly mutex = new AsyncMutex();
  private credentials: StoredOAuthCredentials | undefined;
  private loaded = false;
  private sdkRefresh: { release: () => void } | null = null;
  /** The DPoP session over the stored key, rebuilt when the stored key changes (a login elsewhere). */
  private dpop: { key: StoredDpopKey; session: Promise<DpopSession> } | undefined;
  private creatingDpopKey: Promise<StoredDpopKey> | undefined;

  constructor(options: OAuthSessionOptions) {
    this.serverName = options.serverName;
    this.serverUrl = options.serverUrl;
    this.storeKey = oauthStoreKey(options.serverName, options.serverUrl);
    this.store = options.store;
    this.lockPath = options.lockPath;
    this.sharedLock = options.sharedLock;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.refreshSkewMs = options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS;
  }

  /** The credentials as last loaded or saved (read from the store once). */
  async current(): Promise<StoredOAuthCredentials | undefined> {
    if (!this.loaded) {
      this.credentials = await this.store.load(this.storeKey);
      this.loaded = true;
    }
    return this.credentials;
  }

  get discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  set discoveryState(state: OAuthDiscoveryState | undefined) {
    this.discovery = state;
    if (state?.resourceMetadataUrl) this.resourceMetadataUrl = state.resourceMetadataUrl;
  }

  /** Read the store again (a login in another process may have stored tokens since). */
  async reload(): Promise<StoredOAuthCredentials | undefined> {
    this.credentials = await this.store.load(this.storeKey);
    this.loaded = true;
    return this.credentials;
  }

  /** This server's DPoP session, over the key pair stored with its credentials (created and stored on first use). */
  async dpopSession(alg: () => Promise<DpopAlg>): Promise<DpopSession> {
    const key =
      (await this.current())?.dpop_key ??
      (await (this.creatingDpopKey ??= this.createDpopKey(alg).finally(() => {
        this.creatingDpopKey = undefined;
      })));
    if (!this.dpop || !sameDpopKey(this.dpop.key, key)) this.dpop = { key, session: dpopSessionFor(key) };
    return this.dpop.session;
  }

  /**
   * A new key pair, stored with the credentials before any token is bound to it. Not under the
   * refresh gate (a token request in progress may be the one asking); when another process stored
   * a key first, that one is used.
   */
  private async createDpopKey(alg: () => Promise<DpopAlg>): Promise<StoredDpopKey> {
    const stored = await this.store.load(this.storeKey);
    if (!stored?.dpop_key) {
      const next: StoredOAuthCredentials = { server_name: this.serverName, server_url: this.serverUrl, ...(stored ?? {}), dpop_key: await createDpopKey(await alg()) };
      await this.store.save(this.storeKey, next);
    }
    const settled = await this.store.load(this.storeKey);
    if (!settled?.dpop_key) throw new Error(`the DPoP key of MCP server ${this.serverName} could not be stored`);
    this.credentials = settled;
    this.loaded = true;
    return settled.dpop_key;
  }

  isExpiring(creds: StoredOAuthCredentials): boolean {
    return accessTokenExpiring(creds, this.now(), this.refreshSkewMs);
  }

  /**
   * Make sure the access token is not about to expire. Under the refresh gate the memory copy is
   * checked again (another connection may have refreshed while we waited), then the store is
   * re-read (another process may have), and only then is `refresh` called with the newest tokens.
   */
  async refreshIfExpiring(refresh: (creds: StoredOAuthCredentials) => Promise<StoredOAuthTokens>): Promise<StoredOAuthCredentials | undefined> {
    const creds = await this.current();
    if (!creds?.tokens || !this.isExpiring(creds)) return creds;
    return this.withRefreshGate(async () => {
      if (this.credentials?.tokens && !this.isExpiring(this.credentials)) return this.credentials;
      const stored = await this.store.load(this.storeKey);
      if (stored?.tokens && !this.isExpiring(stored)) {
        this.logger.debug('adopting OAuth tokens refreshed by another process', { server: this.serverName });
        this.credentials = stored;
        return stored;
      }
      if (!stored?.tokens) {
        // Logged out (or the login was rejected) since we loaded it: logout wins over refresh.
        this.credentials = stored;
        return stored;
      }
      const tokens = await refresh(stored);
      return this.persistTokens(tokens, stored);
    });
  }

  /** Run `fn` holding the in-process mutex and the cross-process lock. */
  async withRefreshGate<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquireGate();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * The SDK is about to refresh with `tokens.refresh_token` (after a 401). Take the gate and keep
   * it until the SDK reports back (saveTokens, invalidateCredentials or state), then point the SDK
   * at the newest refresh token in the store so a token rotated elsewhere is never replayed.
   */
  async beginSdkRefresh(tokens: StoredOAuthTokens): Promise<void> {
    const release = await this.acquireGate();
    const timer = setTimeout(() => {
      this.logger.warn('OAuth refresh did not report back; releasing the refresh lock', { server: this.serverName });
      this.endSdkRefresh();
    }, SDK_REFRESH_GATE_TIMEOUT_MS);
    timer.unref();
    this.sdkRefresh = {
      release: () => {
        clearTimeout(timer);
        release();
      },
    };
    try {
      const stored = await this.store.load(this.storeKey);
      const newest = stored?.tokens?.refresh_token;
      if (newest && newest !== tokens.refresh_token) {
        // The SDK reads the refresh token from this same object right after this hook returns.
        tokens.refresh_token = newest;
      }
    } catch (err) {
      this.logger.warn('cannot re-read OAuth credentials before refreshing', { server: this.serverName, error: errorMessage(err) });
    }
  }

  /** Release the gate of an SDK refresh; true when one was in flight. */
  endSdkRefresh(): boolean {
    const pending = this.sdkRefresh;
    if (!pending) return false;
    this.sdkRefresh = null;
    pending.release();
    return true;
  }

  async persistTokens(tokens: StoredOAuthTokens, base?: StoredOAuthCredentials, clientInformation?: StoredOAuthClientInformation): Promise<StoredOAuthCredentials> {
    const previous = base ?? (await this.current());
    const next: StoredOAuthCredentials = {
      server_name: this.serverName,
      server_url: this.serverUrl,
      client_information: previous?.client_information ?? clientInformation,
      tokens,
      expires_at: expiresAtFrom(tokens, this.now()),
    };
    const resourceMetadataUrl = this.resourceMetadataUrl ?? previous?.resource_metadata_url;
    if (resourceMetadataUrl) next.resource_metadata_url = resourceMetadataUrl;
    // The key the token is bound to (stored before the token request, maybe after `base` was read).
    const dpopKey = previous?.dpop_key ?? this.credentials?.dpop_key;
    if (dpopKey) next.dpop_key = dpopKey;
    await this.store.save(this.storeKey, next);
    this.credentials = next;
    this.loaded = true;
    return next;
  }

  async persistClientInformation(info: StoredOAuthClientInformation | undefined): Promise<void> {
    const previous = await this.current();
    const next: StoredOAuthCredentials = {
      server_name: this.serverName,
      server_url: this.serverUrl,
      ...(previous ?? {}),
      client_information: info,
    };
    if (!info) delete next.client_information;
    await this.store.save(this.storeKey, next);
    this.credentials = next;
  }

  /** Forget the tokens (revoked or rejected); the client registration and DPoP key are kept for the next login. */
  async dropTokens(): Promise<void> {
    const previous = await this.current();
    if (!previous?.tokens) return;
    const next: StoredOAuthCredentials = { ...previous };
    delete next.tokens;
    delete next.expires_at;
    const keep = next.client_information !== undefined || next.dpop_key !== undefined;
    if (keep) await this.store.save(this.storeKey, next);
    else await this.store.delete(this.storeKey);
    this.credentials = keep ? next : undefined;
  }

  async deleteAll(): Promise<boolean> {
    this.credentials = undefined;
    this.loaded = true;
    this.discovery = undefined;
    this.dpop = undefined;
    return this.store.delete(this.storeKey);
  }

  private async acquireGate(): Promise<Release> {
    const releaseMutex = await this.mutex.acquire();
    const lockPath = this.lockPath;
    const take = this.sharedLock ? () => this.sharedLock!(this.storeKey) : lockPath ? () => acquireFileLock(lockPath) : null;
    if (!take) return releaseMutex;
    let releaseFile: FileRelease;
    try {
      releaseFile = await take();
    } catch (err) {
      releaseMutex();
      throw err;
    }
    // The mutex is handed on only after the lock file is gone, so a waiter here never spins on it.
    return () => {
      void releaseFile().finally(releaseMutex);
    };
  }
}
