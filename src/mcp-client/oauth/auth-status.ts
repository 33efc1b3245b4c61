// `auth_status` for `mcp list/get`, by Codex's rules: bearer token when the config authenticates
// itself, OAuth when usable credentials are stored, not logged in when OAuth discovery succeeds,
// unsupported otherwise (stdio, disabled, no discovery, discovery errors).
import type { FetchLike } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../../config/index.js';
import { credentialsUsable, oauthStoreKey } from './credentials.js';
import { discoverOAuth } from './discovery.js';
import { hasStaticAuthorization } from './oauth-runtime.js';
import type { TokenStore } from './token-store.js';

export type McpAuthStatus = 'unsupported' | 'not_logged_in' | 'bearer_token' | 'oauth';

export interface AuthStatusDeps {
  store: TokenStore;
  env: NodeJS.ProcessEnv;
  fetch?: FetchLike;
  signal?: AbortSignal;
  now?: () => number;
  /** Per discovery request (default 5 s). */
  discoveryTimeoutMs?: number;
}

export async function determineAuthStatus(server: McpServerConfig, deps: AuthStatusDeps): Promise<McpAuthStatus> {
  if (!server.enabled || server.transport.type === 'stdio') return 'unsupported';
  if (hasStaticAuthorization(server)) return 'bearer_token';
  const oauth = server.oauth;
  if (oauth?.grant_type === 'client_credentials' && oauth.client_id && oauth.client_secret_env_var) {
    // No login exists for client_credentials: it is usable whenever its secret is.
    const secret = deps.env[oauth.client_secret_env_var];
    return secret && secret.trim() !== '' ? 'oauth' : 'not_logged_in';
  }
  const url = server.transport.url;
  try {
    const stored = await deps.store.load(oauthStoreKey(server.name, url));
    if (credentialsUsable(stored, (deps.now ?? Date.now)())) return 'oauth';
  } catch {
    // An unreadable store (keyring mode without a keyring) counts as "nothing stored".
  }
  try {
    const found = await discoverOAuth(url, { fetch: deps.fetch, signal: deps.signal, timeoutMs: deps.discoveryTimeoutMs });
    return found ? 'not_logged_in' : 'unsupported';
  } catch {
    return 'unsupported';
  }
}
