// The `switchboard/oauth` package entry: OAuth 2.1 for HTTP MCP servers reached through McpClient
// (`authProviderFor`): an SDK OAuthClientProvider over a token store, headless or client-credentials
// authorization, and discovery. createConnectionManager already uses the configured store.
export { OAuthRuntime, createOAuthRuntime, SwitchboardOAuthProvider, MemoryTokenStore, discoverAuthorizationState } from '../mcp-client/oauth/index.js';
export type {
  OAuthRuntimeOptions,
  OAuthSession,
  SwitchboardOAuthProviderOptions,
  AuthorizationMode,
  OAuthGrant,
  TokenStore,
  StoredOAuthCredentials,
} from '../mcp-client/oauth/index.js';
