// The process's OAuth composition object: one token store, one OAuthSession per server (shared by
// every connection to it), and `authProviderFor(config)`, the seam the HTTP transport consumes.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config, McpServerConfig } from '../../config/index.js';
import { SwitchboardError, type Logger } from '../../util/index.js';
import { oauthStoreKey } from './credentials.js';
import { OAuthSession } from './oauth-session.js';
import { resolveOAuthCredential, type OAuthCredential } from './credential-config.js';
import { SwitchboardOAuthProvider, type AuthorizationMode } from './provider.js';
import { createTokenStore, type TokenStore } from './token-store.js';
import type { KeyringBackend } from './keyring-token-store.js';
import { SharedTokenStore } from './shared-token-store.js';
import type { CredentialStore } from '../../store/index.js';

export const OAUTH_LOCK_DIR = '.mcp-oauth-locks';

/** An OAuthRuntime's token store and settings. */
export interface OAuthRuntimeOptions {
  /** $SWITCHBOARD_HOME (refresh locks live here); null for a process-local store. */
  home: string | null;
  store: TokenStore;
  /** Refresh lock across replicas (the shared store's); replaces the lock files under `home`. */
  sharedLock?: (storeKey: string) => Promise<() => Promise<void>>;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  clientMetadataUrl?: string | null;
  now?: () => number;
  refreshSkewMs?: number;
}

/** True when the server's own config already authenticates it (so OAuth stays out of the way). */
export function hasStaticAuthorization(server: McpServerConfig): boolean {
  const t = server.transport;
  if (t.type === 'stdio') return false;
  if (t.bearer_token_env_var) return true;
  const names = [...Object.keys(t.http_headers ?? {}), ...Object.keys(t.env_http_headers ?? {})];
  return names.some((n) => n.toLowerCase() === 'authorization');
}

/**
 * OAuth for a process: one token store, one shared session per server (so concurrent connections
 * refresh a token once), and providers for McpClient's `authProviderFor`.
 */
export class OAuthRuntime {
  readonly store: TokenStore;
  /** Where `*_env_var` secrets are read. */
  readonly env: NodeJS.ProcessEnv;
  private readonly options: OAuthRuntimeOptions;
  private readonly sessions = new Map<string, OAuthSession>();

  constructor(options: OAuthRuntimeOptions) {
    this.options = options;
    this.store = options.store;
    this.env = options.env;
  }

  /** The shared session for one server (keyed like the store: name and URL). */
  session(serverName: string, serverUrl: string): OAuthSession {
    const key = oauthStoreKey(serverName, serverUrl);
    let session = this.sessions.get(key);
    if (!session) {
      const lockName = `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.lock`;
      session = new OAuthSession({
        serverName,
        serverUrl,
        store: this.store,
        lockPath: this.options.home ? path.join(this.options.home, OAUTH_LOCK_DIR, lockName) : null,
        sharedLock: this.options.sharedLock,
        logger: this.options.logger.child({ component: 'oauth', server: serverName }),
        now: this.options.now,
        refreshSkewMs: this.options.refreshSkewMs,
      });
      this.sessions.set(key, session);
    }
    return session;
  }

  /** How `server` proves who it is, with its secrets read (a config error names the key at fault). */
  credentialFor(server: McpServerConfig): OAuthCredential {
    return resolveOAuthCredential(server, this.options.env);
  }

  /** A provider for `server` in the given mode (connections use `{ kind: 'none' }`). */
  providerFor(server: McpServerConfig, mode: AuthorizationMode): SwitchboardOAuthProvider {
    if (server.transport.type === 'stdio') throw new SwitchboardError('oauth_unsupported', `OAuth is not supported for stdio server ${server.name}`);
    const { grant, client, dpop } = this.credentialFor(server);
    return new SwitchboardOAuthProvider({
      session: this.session(server.name, server.transport.url),
      mode,
      grant,
      clientId: client.clientId,
      clientSecret: client.clientSecret ?? null,
      privateKey: client.privateKey ?? null,
      dpop,
      scopes: server.scopes,
      clientMetadataUrl: this.options.clientMetadataUrl ?? null,
      resource: server.oauth_resource,
    });
  }

  /**
   * The seam for the HTTP transport: an SDK OAuthClientProvider for HTTP servers that do not
   * authenticate through their own headers. It never starts a login; without usable credentials
   * requests fail with auth_required (`The <name> MCP server is not logged in. ...`).
   */
  authProviderFor(server: McpServerConfig): SwitchboardOAuthProvider | undefined {
    if (server.transport.type === 'stdio' || hasStaticAuthorization(server)) return undefined;
    return this.providerFor(server, { kind: 'none' });
  }
}

export interface CreateOAuthRuntimeDeps {
  logger: Logger;
  env: NodeJS.ProcessEnv;
  keyring?: KeyringBackend;
  /** Replicas: credentials sealed in the shared store (`[store] credentials_key_env_var`) instead of the keyring or file. */
  credentials?: CredentialStore | null;
}

/** The OAuthRuntime the CLI uses: the credentials store `config` selects (tokens saved by `switchboard mcp login`). */
export function createOAuthRuntime(config: Config, deps: CreateOAuthRuntimeDeps): OAuthRuntime {
  const shared = deps.credentials;
  if (shared) {
    const lock = (key: string) => shared.lock(key);
    return new OAuthRuntime({ home: null, store: new SharedTokenStore(shared), sharedLock: lock, logger: deps.logger, env: deps.env, clientMetadataUrl: config.mcp_oauth_client_metadata_url });
  }
  const store = createTokenStore({ mode: config.mcp_oauth_credentials_store, home: config.home, logger: deps.logger, keyring: deps.keyring });
  return new OAuthRuntime({
    home: config.home,
    store,
    logger: deps.logger,
    env: deps.env,
    clientMetadataUrl: config.mcp_oauth_client_metadata_url,
  });
}
