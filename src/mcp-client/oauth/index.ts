// OAuth 2.1 for HTTP MCP servers: discovery, login/logout, the credential kinds (browser login, client
// credentials, workload identity, enterprise identity assertion, DPoP), token store, refresh, auth status.
export * from './errors.js';
export { oauthStoreKey, type StoredOAuthCredentials } from './credentials.js';
export * from './token-store.js';
export { FileTokenStore } from './file-token-store.js';
export { SharedTokenStore } from './shared-token-store.js';
/** What the shared store offers for credentials (re-exported so the connection manager can pass one on). */
export type { CredentialStore } from '../../store/index.js';
export { KeyringTokenStore, napiKeyringBackend, type KeyringBackend } from './keyring-token-store.js';
export { discoverOAuth, discoverAuthorizationState, normalizeScopes, DISCOVERY_TIMEOUT_MS, type OAuthDiscovery } from './discovery.js';
export { parseScopesFlag } from './scopes.js';
export { OAuthSession, DEFAULT_REFRESH_SKEW_MS, type OAuthSessionOptions } from './oauth-session.js';
export { SwitchboardOAuthProvider, type AuthorizationMode, type SwitchboardOAuthProviderOptions } from './provider.js';
export { resolveOAuthCredential, isMachineGrant, type OAuthCredential, type OAuthGrant, type OAuthGrantKind, type IdentityProvider, type TokenSource } from './credential-config.js';
/** The token requests without a browser, for reuse (acting for each caller upstream). */
export {
  requestToken,
  exchangeToken,
  jwtBearerGrant,
  jwtBearerParams,
  requestIdentityAssertion,
  discoverTokenEndpoint,
  tokenEndpointOf,
  GRANT_TYPES,
  TOKEN_TYPES,
  type ClientCredentials,
  type TokenEndpoint,
  type TokenRequestOptions,
  type TokenExchangeOptions,
  type IssuedToken,
} from './token-grants.js';
export { OAuthRuntime, createOAuthRuntime, hasStaticAuthorization, OAUTH_LOCK_DIR, type OAuthRuntimeOptions } from './oauth-runtime.js';
export {
  determineAuthStatus,
  describeCredential,
  credentialKindLabel,
  credentialStateLabel,
  type McpAuthStatus,
  type AuthStatusDeps,
  type CredentialKind,
  type CredentialSummary,
} from './auth-status.js';
export { CallerIdentities, type CallerIdentitiesOptions } from './caller-identities.js';
export { CallerLogins, LOGIN_TTL_MS } from './caller-login.js';
export { ExchangedToken, exchangeSettings, EXCHANGE_SKEW_MS } from './caller-exchange.js';
export { performOAuthLogin, performOAuthLogout, LOGIN_TEXTS, DEFAULT_OAUTH_LOGIN_TIMEOUT_MS, type OAuthLoginOptions, type OAuthLoginOutcome } from './login.js';
