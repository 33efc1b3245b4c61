// Acting as each caller upstream (identity = "caller"), the three ways: token exchange of the
// caller's inbound token, an identity assertion grant made from it (enterprise-managed
// authorization), or the caller's own login (stored per caller in the store, sealed). The manager
// asks for one caller's credential to one server; tokens obtained from the caller's token are kept
// per caller in memory until shortly before they expire, across that caller's connections.
import type { FetchLike } from '@modelcontextprotocol/client';
import { callerIdentityKind, type McpServerConfig } from '../../config/index.js';
import type { CallerCredentialStore } from '../../store/index.js';
import { McpClientError, SwitchboardError, type Logger } from '../../util/index.js';
import type { CallerAuth, UpstreamCaller, UpstreamIdentities } from '../caller-identity.js';
import { ExchangedToken, exchangeSettings, type ExchangeSettings } from './caller-exchange.js';
import { CallerLogins } from './caller-login.js';
import { CallerTokenStore } from './caller-token-store.js';
import { resolveOAuthCredential } from './credential-config.js';
import { oauthStoreKey } from './credentials.js';
import { OAuthSession } from './oauth-session.js';
import { SwitchboardOAuthProvider, type AuthorizationMode } from './provider.js';
import { MemoryTokenStore } from './token-store.js';

/** Callers whose exchanged tokens are kept at once (the least recently used are dropped past it). */
const MAX_KEPT_CALLERS = 10_000;

export interface CallerIdentitiesOptions {
  servers: Readonly<Record<string, McpServerConfig>>;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Callers' own logins (`[store] credentials_key_env_var`); without it a login server refuses its callers. */
  store: CallerCredentialStore | null;
  /** The MCP endpoint's public URL, beneath which the login routes live. */
  endpointUrl: () => string;
  clientMetadataUrl?: string | null;
  fetch?: FetchLike;
  now?: () => number;
}

const noRenew = () => {};
const always = async () => true;

export class CallerIdentities implements UpstreamIdentities {
  /** Exchanged and asserted tokens per (server, caller), kept across connections. */
  private readonly kept = new Map<string, CallerAuth>();
  private readonly exchange = new Map<string, ExchangeSettings>();
  readonly logins: CallerLogins | null;

  constructor(private readonly options: CallerIdentitiesOptions) {
    const store = options.store;
    this.logins = store
      ? new CallerLogins({
          store,
          server: (name) => options.servers[name],
          provider: (server, caller, redirectUrl, onAuthorizationUrl) => this.loginProvider(server, caller, { kind: 'interactive', redirectUrl, onAuthorizationUrl }),
          endpointUrl: options.endpointUrl,
          logger: options.logger.child({ component: 'upstream-login' }),
          ...(options.fetch ? { fetch: options.fetch } : {}),
        })
      : null;
  }

  async authFor(server: McpServerConfig, caller: UpstreamCaller): Promise<CallerAuth> {
    const kind = callerIdentityKind(server);
    if (kind === undefined) throw new SwitchboardError('internal', `MCP server '${server.name}' acts as the operator`);
    if (kind === 'caller_login') return this.login(server, caller);
    const key = `${server.name}\u0000${caller.key}`;
    let held = this.kept.get(key);
    if (held) {
      this.kept.delete(key);
      held.renew(caller);
    } else {
      held = kind === 'token_exchange' ? this.exchanged(server, caller) : this.asserted(server, caller);
    }
    this.kept.set(key, held);
    if (this.kept.size > MAX_KEPT_CALLERS) this.kept.delete(this.kept.keys().next().value!);
    return held;
  }

  async authFailed(server: McpServerConfig, caller: UpstreamCaller, err: unknown): Promise<unknown> {
    if (callerIdentityKind(server) !== 'caller_login') return err;
    // The stored login no longer works (revoked upstream, refresh token expired): a new login does.
    const store = this.callerStore(server, caller);
    if (await this.holdsTokens(store, server)) return err;
    return this.loginRequired(server);
  }

  /** How many token exchanges were made for `caller` on `server` (0 when none is kept). */
  exchangesFor(server: string, caller: string): number {
    const held = this.kept.get(`${server}\u0000${caller}`);
    return held?.provider instanceof ExchangedToken ? held.provider.exchanges : 0;
  }

  private exchanged(server: McpServerConfig, caller: UpstreamCaller): CallerAuth {
    let settings = this.exchange.get(server.name);
    if (!settings) {
      settings = exchangeSettings(server, this.options.env, { ...(this.options.fetch ? { fetch: this.options.fetch } : {}), ...(this.options.now ? { now: this.options.now } : {}) });
      this.exchange.set(server.name, settings);
    }
    const provider = new ExchangedToken(settings, caller);
    return { kind: 'token_exchange', provider, renew: (c) => provider.renew(c), current: always };
  }

  /** Enterprise-managed authorization: the operator's identity assertion flow, with the caller's token as the subject. */
  private asserted(server: McpServerConfig, caller: UpstreamCaller): CallerAuth {
    let subject = caller.token;
    const credential = resolveOAuthCredential(server, this.options.env, () => {
      if (!subject) throw new McpClientError('auth_required', `MCP server '${server.name}' asserts each caller's identity, but this caller presented no token`);
      return subject.reveal();
    });
    const provider = this.providerWith(server, caller.key, new MemoryTokenStore(), credential, { kind: 'none' });
    return {
      kind: 'identity_assertion',
      provider,
      renew: (c) => {
        if (c.token) subject = c.token;
      },
      current: always,
    };
  }

  /** The caller's own login: its stored tokens, or a login link when it holds none. */
  private async login(server: McpServerConfig, caller: UpstreamCaller): Promise<CallerAuth> {
    const store = this.callerStore(server, caller);
    if (!(await this.holdsTokens(store, server))) throw this.loginRequired(server);
    const name = this.storeKey(server);
    return { kind: 'caller_login', provider: this.loginProvider(server, caller.key, { kind: 'none' }), renew: noRenew, current: async () => (await store.stamp(name)) !== undefined };
  }

  private loginProvider(server: McpServerConfig, caller: string, mode: AuthorizationMode): SwitchboardOAuthProvider {
    const credential = resolveOAuthCredential(server, this.options.env);
    return this.providerWith(server, caller, this.callerStore(server, { key: caller }), credential, mode);
  }

  private providerWith(server: McpServerConfig, caller: string, store: CallerTokenStore | MemoryTokenStore, credential: ReturnType<typeof resolveOAuthCredential>, mode: AuthorizationMode): SwitchboardOAuthProvider {
    if (server.transport.type === 'stdio') throw new SwitchboardError('internal', `MCP server '${server.name}' is not an HTTP server`);
    const session = new OAuthSession({
      serverName: server.name,
      serverUrl: server.transport.url,
      store,
      lockPath: null,
      sharedLock: store instanceof CallerTokenStore ? (key) => store.lock(key) : undefined,
      logger: this.options.logger.child({ component: 'oauth', server: server.name, caller }),
      ...(this.options.now ? { now: this.options.now } : {}),
    });
    return new SwitchboardOAuthProvider({
      session,
      mode,
      grant: credential.grant,
      clientId: credential.client.clientId,
      clientSecret: credential.client.clientSecret ?? null,
      privateKey: credential.client.privateKey ?? null,
      dpop: credential.dpop,
      scopes: server.scopes,
      clientMetadataUrl: this.options.clientMetadataUrl ?? null,
      resource: server.oauth_resource,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
  }

  private callerStore(server: McpServerConfig, caller: Pick<UpstreamCaller, 'key'>): CallerTokenStore {
    const store = this.options.store;
    if (!store) {
      throw new McpClientError(
        'config',
        `MCP server '${server.name}' has each caller log in (identity = "caller"), and their credentials are kept encrypted: set [store] credentials_key_env_var to a variable holding a random key (e.g. \`openssl rand -base64 32\`)`,
      );
    }
    return new CallerTokenStore(store, caller.key, server.name);
  }

  private storeKey(server: McpServerConfig): string {
    return oauthStoreKey(server.name, server.transport.type === 'stdio' ? '' : server.transport.url);
  }

  private async holdsTokens(store: CallerTokenStore, server: McpServerConfig): Promise<boolean> {
    return (await store.load(this.storeKey(server)))?.tokens !== undefined;
  }

  private loginRequired(server: McpServerConfig): McpClientError {
    return new McpClientError('upstream_login_required', `MCP server '${server.name}' acts as each caller, and this caller has not signed in to it yet`);
  }

  async beginLogin(server: McpServerConfig, caller: UpstreamCaller): Promise<{ url: string; id: string }> {
    this.callerStore(server, caller);
    return this.logins!.begin(server, caller);
  }

  /** Resolves once `caller` holds tokens for `server` (see CallerLogins.waitFor). */
  waitForLogin(server: McpServerConfig, caller: UpstreamCaller, signal: AbortSignal): Promise<void> {
    const store = this.callerStore(server, caller);
    return this.logins!.waitFor(server, caller.key, () => this.holdsTokens(store, server), signal);
  }
}
