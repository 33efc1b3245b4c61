// auth_status for `mcp list`: the OAuth layer decides (Codex's McpAuthStatus rules); this file only
// builds its dependencies from the CLI context and labels the result.
import type { Config, McpServerConfig } from '../config/index.js';
import { AUTH_STATUS_DISPLAY, createTokenStore, determineAuthStatus, type McpAuthStatus } from '../mcp-client/index.js';
import type { CliContext } from './context.js';

export type AuthStatus = McpAuthStatus;

export type AuthStatusResolver = (server: McpServerConfig) => Promise<AuthStatus>;

/** A resolver for one command run: one token store, discovery with its own 5 s timeouts. */
export function authStatusResolver(ctx: Pick<CliContext, 'env' | 'logger'>, config: Config): AuthStatusResolver {
  const store = createTokenStore({ mode: config.mcp_oauth_credentials_store, home: config.home, logger: ctx.logger });
  return (server) => determineAuthStatus(server, { store, env: ctx.env });
}

/** Codex's display text for a status (the `Auth` column of `mcp list`). */
export function authStatusLabel(status: AuthStatus): string {
  return AUTH_STATUS_DISPLAY[status];
}
