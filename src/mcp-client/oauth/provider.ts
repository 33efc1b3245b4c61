// switchboard's SDK OAuthClientProvider: credentials from the token store, proactive refresh before
// use, the SDK's own 401 refresh serialised through the session's refresh gate, three ways of
// handling an authorization redirect (authorization-modes.ts), the grants that need no browser, private_key_jwt client authentication and DPoP.
import { randomBytes } from 'node:crypto';
import {
  OAuthError,
  OAuthErrorCode,
  type AddClientAuthentication,
  type DpopSession,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { isMachineGrant, type OAuthGrant } from './credential-config.js';
import { dpopAlgFor } from './dpop-key.js';
import { OAuthAuthRequiredError, OAuthCredentialError, OAuthRefreshFailedError } from './errors.js';
import { AuthorizationRedirects, type AuthorizationMode } from './authorization-modes.js';
import { IdentityProviderEndpoint, RefusedGrant, machineGrantParams, refusedGrantText } from './machine-grants.js';
import type { OAuthSession } from './oauth-session.js';
import { discover, refreshCredentials, resourceIndicator, usableMachineToken } from './refresh.js';
import { GRANT_TYPES, privateKeyJwtAuth } from './token-grants.js';

export type { AuthorizationMode } from './authorization-modes.js';

/** A SwitchboardOAuthProvider's session, authorization mode, grant and client identity. */
export interface SwitchboardOAuthProviderOptions {
  session: OAuthSession;
  mode: AuthorizationMode;
  grant: OAuthGrant;
  /** Pre-configured client (config `oauth.client_id`, or pre-registration). */
  clientId?: string | null;
  clientSecret?: string | null;
  /** private_key_jwt client authentication (needs clientId). */
  privateKey?: { pem: string; algorithm: string } | null;
  /** Sender-constrained tokens (RFC 9449) with the server's stored key pair. */
  dpop?: boolean;
  /** Scopes a grant without a browser asks for (config `scopes`); default none. */
  scopes?: readonly string[] | null;
  /** Client ID Metadata Document URL, used where the server supports it (instead of DCR). */
  clientMetadataUrl?: string | null;
  /** Config `oauth_resource`: the RFC 8707 resource to ask for instead of the discovered one. */
  resource?: string | null;
  fetch?: FetchLike;
}

const CLIENT_NAME = 'switchboard';
/** Placeholder redirect for connections, which never send a user to the authorization server. */
const NO_REDIRECT = 'http://127.0.0.1/callback';

/**
 * The MCP SDK's OAuthClientProvider over an OAuthSession: stored credentials, refresh before
 * expiry, and an authorization mode (refuse, hand the URL to a login UI, or follow it headlessly).
 */
export class SwitchboardOAuthProvider implements OAuthClientProvider {
  readonly session: OAuthSession;
  readonly mode: AuthorizationMode;
  readonly grant: OAuthGrant;
  readonly clientMetadataUrl: string | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;
  readonly validateResourceURL?: (serverUrl: string | URL, resource?: string) => Promise<URL | undefined>;
  /**
   * Present only with DPoP on, so the SDK wraps requests in proofs only then. Undefined (plain
   * bearer) for a connection to a browser-login server that holds no key: nothing is bound yet.
   */
  readonly dpop?: () => Promise<DpopSession | undefined>;
  private readonly options: SwitchboardOAuthProviderOptions;
  private readonly idpEndpoint: IdentityProviderEndpoint | undefined;
  private readonly refusedGrant = new RefusedGrant();
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private readonly redirects: AuthorizationRedirects;

  constructor(options: SwitchboardOAuthProviderOptions) {
    this.options = options;
    this.session = options.session;
    this.mode = options.mode;
    this.redirects = new AuthorizationRedirects(options.mode);
    this.grant = options.grant;
    this.clientMetadataUrl = options.clientId ? undefined : (options.clientMetadataUrl ?? undefined);
    this.addClientAuthentication = privateKeyJwtAuth({ clientId: options.clientId ?? null, ...(options.privateKey ? { privateKey: options.privateKey } : {}) });
    const resource = options.resource;
    if (resource) {
      const validateResourceURL = async () => new URL(resource);
      this.validateResourceURL = validateResourceURL;
    }
    if (options.dpop) {
      const dpop = async () => {
        if (this.mode.kind === 'none' && !this.isMachineGrant && !(await this.session.current())?.dpop_key) return undefined;
        // The algorithm matters once, when the key is made: the one the authorization server takes.
        return this.session.dpopSession(async () => dpopAlgFor((this.session.discoveryState ?? (await discover(this).catch(() => undefined)))?.authorizationServerMetadata));
      };
      this.dpop = dpop;
    }
    this.idpEndpoint = options.grant.kind === 'identity_assertion' ? new IdentityProviderEndpoint(options.grant.idp) : undefined;
  }

  /** True for the grants that need no browser (client credentials, workload identity, identity assertion). */
  get isMachineGrant(): boolean {
    return isMachineGrant(this.grant);
  }

  get redirectUrl(): string | undefined {
    if (this.isMachineGrant) return undefined;
    return this.mode.kind === 'none' ? NO_REDIRECT : this.mode.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.isMachineGrant) {
      const authMethod = this.options.privateKey ? 'private_key_jwt' : this.options.clientSecret ? 'client_secret_basic' : 'none';
      return {
        client_name: CLIENT_NAME,
        redirect_uris: [],
        grant_types: [this.grant.kind === 'client_credentials' ? GRANT_TYPES.clientCredentials : GRANT_TYPES.jwtBearer],
        token_endpoint_auth_method: authMethod,
        ...(this.options.scopes && this.options.scopes.length > 0 ? { scope: this.options.scopes.join(' ') } : {}),
      };
    }
    // refresh_token listed so servers issue refresh tokens and auth() asks for offline_access.
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl ?? NO_REDIRECT],
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
    };
  }

  /** How many headless authorizations completed (a caller retries its operation after one). */
  takeCompletedAuthorizations(): number {
    return this.redirects.takeCompleted();
  }

  // ---- tokens ------------------------------------------------------------------------------

  /**
   * Without ctx this is the transport's read before every request: refresh first when the token
   * expires within the skew. With ctx it is auth() deciding what to do after a 401 or 403.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx) {
      if (this.mode.kind === 'interactive') return undefined; // a login always authorizes afresh
      return (await this.session.current())?.tokens;
    }
    // The key pair exists before any refresh gate is taken (the token request signs with it).
    if (this.dpop) await this.dpop();
    const creds = await this.session.current();
    if (!creds?.tokens) return this.isMachineGrant ? usableMachineToken(this) : undefined;
    if (!this.session.isExpiring(creds)) return creds.tokens;
    if (!creds.tokens.refresh_token && this.isMachineGrant) return usableMachineToken(this);
    if (!creds.tokens.refresh_token) return undefined;
    const fresh = await this.session.refreshIfExpiring((base) => refreshCredentials(this, base));
    return fresh?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    try {
      const configured = this.options.clientId ? { client_id: this.options.clientId, issuer: tokens.issuer } : undefined;
      await this.session.persistTokens(tokens, undefined, configured);
    } finally {
      this.session.endSdkRefresh();
    }
  }

  /** Called by auth() right before it refreshes after a 401: serialise that refresh. */
  async scopeForRefresh(tokens: StoredOAuthTokens): Promise<string | undefined> {
    await this.session.beginSdkRefresh(tokens);
    return undefined;
  }

  // ---- client identity -----------------------------------------------------------------------

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    if (this.options.clientId) {
      const secret = this.options.clientSecret ?? undefined;
      return { client_id: this.options.clientId, ...(secret ? { client_secret: secret } : {}), ...(ctx?.issuer ? { issuer: ctx.issuer } : {}) };
    }
    const stored = (await this.session.current())?.client_information;
    if (!stored) return undefined;
    // A registration made for another callback URL would be refused at the authorization server.
    if (this.mode.kind !== 'none' && 'redirect_uris' in stored && Array.isArray(stored.redirect_uris)) {
      const uris = stored.redirect_uris.map(String);
      if (uris.length > 0 && !uris.includes(String(this.redirectUrl))) return undefined;
    }
    return stored;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    await this.session.persistClientInformation(info);
  }

  // ---- discovery -----------------------------------------------------------------------------

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.mode.kind !== 'none') return this.session.discoveryState;
    let creds = await this.session.current();
    // Not logged in when this connection started: a login since then counts.
    if (!creds?.tokens) creds = await this.session.reload();
    // auth() starts here: a connection with nothing stored can only be fixed by a login.
    if (!creds?.tokens && this.grant.kind === 'authorization_code') throw new OAuthAuthRequiredError(this.session.serverName);
    // A connection rediscovers from what the login stored (the PRM location a challenge gave).
    return this.session.discoveryState ?? (creds ? await discover(this) : undefined);
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.session.discoveryState = state;
  }

  // ---- authorization -------------------------------------------------------------------------

  /**
   * auth() calls this right before it builds an authorization URL. After a refresh it started
   * itself has failed without an OAuth verdict (server_error, network), a connection reports a
   * transient failure instead of falling back to a login.
   */
  state(): string {
    const refreshFailed = this.session.endSdkRefresh();
    if (refreshFailed && this.mode.kind === 'none') {
      throw new OAuthRefreshFailedError(this.session.serverName, 'the authorization server did not complete the refresh (see the log)');
    }
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new OAuthError(OAuthErrorCode.InvalidRequest, 'no PKCE code verifier: the authorization was not started by this provider');
    return this.verifier;
  }

  /** The state sent with the last authorization URL (checked against the callback). */
  get authorizationState(): string | undefined {
    return this.expectedState;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    await this.redirects.follow(this, url);
  }

  // ---- grants and invalidation ---------------------------------------------------------------

  /** The transport saw the token endpoint refuse a request (see RefusedGrant). */
  noteTokenRefusal(err: OAuthError): void {
    if (this.isMachineGrant) this.refusedGrant.note(err);
  }

  /** A grant without a browser: its request (the workload token read now, the ID-JAG fetched now). */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (!this.isMachineGrant) return undefined;
    const refused = this.refusedGrant.take();
    if (refused) throw new OAuthCredentialError(this.session.serverName, refusedGrantText(this.grant, refused), { cause: refused, oauthError: refused.code });
    const discovery = this.session.discoveryState?.authorizationServerUrl ? this.session.discoveryState : await discover(this);
    const audience = discovery.authorizationServerMetadata?.issuer ?? String(discovery.authorizationServerUrl);
    const resource = await resourceIndicator(this, discovery);
    const context = { serverName: this.session.serverName, audience, resource: resource === undefined ? undefined : String(resource), now: this.session.now, fetch: this.options.fetch };
    return machineGrantParams(this.grant, scope, context, this.idpEndpoint);
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    this.session.endSdkRefresh();
    switch (scope) {
      case 'tokens':
        this.session.logger.info(
          this.isMachineGrant ? 'OAuth tokens were rejected by the authorization server; a new token will be requested' : 'OAuth tokens were rejected by the authorization server; a new login is needed',
          { server: this.session.serverName },
        );
        await this.session.dropTokens();
        if (this.isMachineGrant) this.refusedGrant.arm();
        return;
      case 'client':
        if (!this.options.clientId) await this.session.persistClientInformation(undefined);
        return;
      case 'all':
        await this.session.deleteAll();
        return;
      case 'verifier':
        this.verifier = undefined;
        return;
      case 'discovery':
        this.session.discoveryState = undefined;
        return;
    }
  }
}

