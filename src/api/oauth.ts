// The `switchboard/oauth` package entry: OAuth 2.1 for HTTP MCP servers reached through McpClient
// (`authProviderFor`): an SDK OAuthClientProvider over a token store, headless logins and every
// credential kind a server's `oauth` table can name (client credentials, workload identity, enterprise
// identity assertion, DPoP), discovery, and the token requests without a browser as plain functions.
// createConnectionManager already uses the configured store.
export {
  OAuthRuntime,
  createOAuthRuntime,
  SwitchboardOAuthProvider,
  MemoryTokenStore,
  discoverAuthorizationState,
  resolveOAuthCredential,
  requestToken,
  exchangeToken,
  jwtBearerGrant,
  requestIdentityAssertion,
  discoverTokenEndpoint,
  GRANT_TYPES,
  TOKEN_TYPES,
} from '../mcp-client/oauth/index.js';
export type {
  OAuthRuntimeOptions,
  OAuthSession,
  SwitchboardOAuthProviderOptions,
  AuthorizationMode,
  OAuthGrant,
  OAuthCredential,
  TokenStore,
  StoredOAuthCredentials,
  ClientCredentials,
  TokenEndpoint,
  TokenRequestOptions,
  TokenExchangeOptions,
  IssuedToken,
} from '../mcp-client/oauth/index.js';
