// What a server's authentication looks like without connecting to it: `auth_status` for `mcp list`
// by Codex's rules (bearer token, OAuth when usable credentials are stored or obtainable, not
// logged in, unsupported), and the credential summary `mcp status` and `mcp login` show: which kind
// the server uses and whether it holds a valid credential. Only `determineAuthStatus` with
// `discover` asks the server anything (OAuth discovery).
import type { FetchLike } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../../config/index.js';
import { assertNever, errorMessage } from '../../util/index.js';
import { resolveOAuthCredential, type OAuthCredential } from './credential-config.js';
import { accessTokenExpiring, credentialsUsable, oauthStoreKey, type StoredOAuthCredentials } from './credentials.js';
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
  /**
   * Ask an HTTP server with nothing stored whether it offers OAuth (Codex does; default true). False
   * never connects: such a server reads as `unsupported` (nothing known says it needs a login).
   */
  discover?: boolean;
}

async function loadStored(server: McpServerConfig, store: TokenStore): Promise<StoredOAuthCredentials | undefined> {
  if (server.transport.type === 'stdio') return undefined;
  try {
    return await store.load(oauthStoreKey(server.name, server.transport.url));
  } catch {
    // An unreadable store (keyring mode without a keyring) counts as "nothing stored".
    return undefined;
  }
}

function tryResolve(server: McpServerConfig, env: NodeJS.ProcessEnv): { credential: OAuthCredential } | { problem: string } {
  try {
    return { credential: resolveOAuthCredential(server, env) };
  } catch (err) {
    return { problem: errorMessage(err) };
  }
}

const isMachineKind = (server: McpServerConfig) => (server.oauth?.grant_type ?? 'authorization_code') !== 'authorization_code';

export async function determineAuthStatus(server: McpServerConfig, deps: AuthStatusDeps): Promise<McpAuthStatus> {
  if (!server.enabled || server.transport.type === 'stdio') return 'unsupported';
  if (hasStaticAuthorization(server)) return 'bearer_token';
  // No login exists for a credential that needs none: it is usable whenever its secrets are.
  if (isMachineKind(server)) return 'credential' in tryResolve(server, deps.env) ? 'oauth' : 'not_logged_in';
  const stored = await loadStored(server, deps.store);
  if (credentialsUsable(stored, (deps.now ?? Date.now)())) return 'oauth';
  // Without asking the server: what is stored or configured says it uses OAuth, else nothing is known.
  if (deps.discover === false) return stored?.tokens || server.oauth ? 'not_logged_in' : 'unsupported';
  try {
    const found = await discoverOAuth(server.transport.url, { fetch: deps.fetch, signal: deps.signal, timeoutMs: deps.discoveryTimeoutMs });
    return found ? 'not_logged_in' : 'unsupported';
  } catch {
    return 'unsupported';
  }
}

/** How a server proves who it is. */
export type CredentialKind = 'none' | 'bearer_token' | 'browser_login' | 'client_secret' | 'private_key_jwt' | 'workload_identity' | 'identity_assertion';

/** Which credential kind a server uses and whether it holds a valid one now (no request is made). */
export interface CredentialSummary {
  kind: CredentialKind;
  dpop: boolean;
  /**
   * `valid`: a token usable now; `refreshable`: expired, with a refresh token; `obtainable`: no token
   * yet, but one is fetched on use without a login; `missing`: a login is needed; `misconfigured`: the
   * config cannot work (`problem` says why); `static`: no OAuth (stdio or a configured bearer token).
   */
  state: 'valid' | 'refreshable' | 'obtainable' | 'missing' | 'misconfigured' | 'static';
  /** Epoch ms when the stored access token expires; null when it does not say. */
  expiresAt?: number | null;
  problem?: string;
}

/** The kind `server` is configured for (from config alone). */
export function credentialKindOf(server: McpServerConfig): CredentialKind {
  if (server.transport.type === 'stdio') return 'none';
  if (hasStaticAuthorization(server)) return 'bearer_token';
  switch (server.oauth?.grant_type ?? 'authorization_code') {
    case 'authorization_code':
      return 'browser_login';
    case 'client_credentials':
      return server.oauth?.private_key_file !== undefined ? 'private_key_jwt' : 'client_secret';
    case 'jwt_bearer':
      return 'workload_identity';
    case 'identity_assertion':
      return 'identity_assertion';
    default:
      return assertNever(server.oauth?.grant_type as never, 'oauth.grant_type');
  }
}

export async function describeCredential(server: McpServerConfig, deps: Pick<AuthStatusDeps, 'store' | 'env' | 'now'>): Promise<CredentialSummary> {
  const kind = credentialKindOf(server);
  const dpop = server.oauth?.dpop === true;
  if (kind === 'none' || kind === 'bearer_token') return { kind, dpop: false, state: 'static' };
  const resolved = tryResolve(server, deps.env);
  if ('problem' in resolved) return { kind, dpop, state: 'misconfigured', problem: resolved.problem };
  const stored = await loadStored(server, deps.store);
  const now = (deps.now ?? Date.now)();
  const expiresAt = stored?.tokens ? (stored.expires_at ?? null) : undefined;
  const timing = expiresAt === undefined ? {} : { expiresAt };
  if (stored?.tokens && !accessTokenExpiring(stored, now, 0)) return { kind, dpop, state: 'valid', ...timing };
  if (stored?.tokens?.refresh_token) return { kind, dpop, state: 'refreshable', ...timing };
  return { kind, dpop, state: kind === 'browser_login' ? 'missing' : 'obtainable', ...timing };
}

const KIND_LABELS: Record<CredentialKind, string> = {
  none: '-',
  bearer_token: 'bearer token',
  browser_login: 'browser login',
  client_secret: 'client credentials (secret)',
  private_key_jwt: 'client credentials (private key JWT)',
  workload_identity: 'workload identity (jwt-bearer)',
  identity_assertion: 'enterprise identity assertion (ID-JAG)',
};

/** `client credentials (secret) + DPoP`. */
export function credentialKindLabel(summary: Pick<CredentialSummary, 'kind' | 'dpop'>): string {
  return `${KIND_LABELS[summary.kind]}${summary.dpop ? ' + DPoP' : ''}`;
}

/** `token valid for 58 min`, `not logged in`, ... */
export function credentialStateLabel(summary: CredentialSummary, now: number = Date.now()): string {
  switch (summary.state) {
    case 'valid':
      if (summary.expiresAt === null || summary.expiresAt === undefined) return 'token valid';
      return `token valid for ${Math.max(1, Math.round((summary.expiresAt - now) / 60_000))} min`;
    case 'refreshable':
      return 'token expired; refreshed on use';
    case 'obtainable':
      return 'no token yet; obtained on use';
    case 'missing':
      return 'not logged in';
    case 'misconfigured':
      return summary.problem ?? 'misconfigured';
    case 'static':
      return '-';
    default:
      return assertNever(summary.state, 'credential state');
  }
}
