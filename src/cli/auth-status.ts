// auth_status for `mcp list`: the OAuth layer decides (Codex's McpAuthStatus rules); this file only
// builds its dependencies from the CLI context (loading that layer on first use) and labels the result.
import type { Config, McpServerConfig } from '../config/index.js';
import type { McpAuthStatus } from '../mcp-client/oauth/index.js';
import { assertNever } from '../util/index.js';
import type { CliContext } from './context.js';

export type AuthStatus = McpAuthStatus;

export type AuthStatusResolver = (server: McpServerConfig) => Promise<AuthStatus>;

/** A resolver for one command run: one token store, discovery with its own 5 s timeouts. */
export function authStatusResolver(ctx: Pick<CliContext, 'env' | 'logger'>, config: Config): AuthStatusResolver {
  const deps = import('../mcp-client/oauth/index.js').then((m) => ({
    determine: m.determineAuthStatus,
    store: m.createTokenStore({ mode: config.mcp_oauth_credentials_store, home: config.home, logger: ctx.logger }),
  }));
  return async (server) => {
    const { determine, store } = await deps;
    return determine(server, { store, env: ctx.env });
  };
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
