// The one place that decides a server's auth status (Codex's McpAuthStatus) for `mcp list`.
import type { McpServerConfig } from '../config/index.js';
import { assertNever } from '../util/index.js';

export type AuthStatus = 'unsupported' | 'not_logged_in' | 'bearer_token' | 'oauth';
export type OAuthStatus = Exclude<AuthStatus, 'bearer_token'>;

export interface AuthStatusDeps {
  /**
   * Stored-token and discovery check for HTTP servers without a static token (the OAuth layer
   * supplies it). Absent: such servers report `unsupported`. It must not throw for an unreachable
   * server; if it does, the status is `unsupported`, as Codex reports a failed discovery.
   */
  oauthStatus?: (server: McpServerConfig, options: { signal?: AbortSignal }) => Promise<OAuthStatus>;
}

function hasAuthorization(headers: Readonly<Record<string, string>> | null): boolean {
  return headers !== null && Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
}

export async function resolveAuthStatus(
  server: McpServerConfig,
  deps: AuthStatusDeps = {},
  options: { signal?: AbortSignal } = {},
): Promise<AuthStatus> {
  if (!server.enabled) return 'unsupported';
  const t = server.transport;
  switch (t.type) {
    case 'stdio':
      return 'unsupported';
    case 'streamable_http':
    case 'sse':
      if (t.bearer_token_env_var !== null) return 'bearer_token';
      if (hasAuthorization(t.http_headers) || hasAuthorization(t.env_http_headers)) return 'bearer_token';
      if (!deps.oauthStatus) return 'unsupported';
      try {
        return await deps.oauthStatus(server, options);
      } catch {
        return 'unsupported';
      }
    default:
      return assertNever(t, 'transport');
  }
}

/** Codex's display text for a status (the `Auth` column of `mcp list`). */
export function authStatusLabel(status: AuthStatus): string {
  switch (status) {
    case 'unsupported':
      return 'Unsupported';
    case 'not_logged_in':
      return 'Not logged in';
    case 'bearer_token':
      return 'Bearer token';
    case 'oauth':
      return 'OAuth';
    default:
      return assertNever(status, 'auth status');
  }
}
