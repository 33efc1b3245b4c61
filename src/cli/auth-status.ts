// auth_status for `mcp list` and the credential summary of `mcp status`: the OAuth layer decides
// (Codex's McpAuthStatus rules; which credential kind, whether a valid one is held); this file only
// builds its dependencies from the CLI context (loading that layer on first use) and labels the result.
import type { Config, McpServerConfig } from '../config/index.js';
import type { CredentialSummary, McpAuthStatus } from '../mcp-client/oauth/index.js';
import { assertNever } from '../util/index.js';
import type { CliContext } from './context.js';

export type AuthStatus = McpAuthStatus;

export type AuthStatusResolver = (server: McpServerConfig) => Promise<AuthStatus>;

/**
 * A resolver for one `mcp list` run: one token store, and no request to any server (list never
 * connects): the status comes from config.toml and the stored credentials.
 */
export function authStatusResolver(ctx: Pick<CliContext, 'env' | 'logger'>, config: Config): AuthStatusResolver {
  const deps = import('../mcp-client/oauth/index.js').then((m) => ({
    determine: m.determineAuthStatus,
    store: m.createTokenStore({ mode: config.mcp_oauth_credentials_store, home: config.home, logger: ctx.logger }),
  }));
  return async (server) => {
    const { determine, store } = await deps;
    return determine(server, { store, env: ctx.env, discover: false });
  };
}

/** What `mcp status` shows of a server's credential: its kind and whether it holds a valid one. */
export interface AuthSummary {
  /** `client credentials (secret) + DPoP: token valid for 59 min`. */
  label: string;
  json: { kind: CredentialSummary['kind']; dpop: boolean; state: CredentialSummary['state']; expires_at?: number | null; problem?: string };
}

/** The credential summaries of the HTTP servers (the OAuth layer is loaded only when there is one). */
export async function credentialSummaries(ctx: Pick<CliContext, 'env' | 'logger'>, config: Config, servers: readonly McpServerConfig[]): Promise<Map<string, AuthSummary>> {
  const http = servers.filter((s) => s.transport.type !== 'stdio');
  const out = new Map<string, AuthSummary>();
  if (http.length === 0) return out;
  const m = await import('../mcp-client/oauth/index.js');
  const store = m.createTokenStore({ mode: config.mcp_oauth_credentials_store, home: config.home, logger: ctx.logger });
  for (const server of http) {
    const summary = await m.describeCredential(server, { store, env: ctx.env });
    const state = m.credentialStateLabel(summary);
    out.set(server.name, {
      label: state === '-' ? m.credentialKindLabel(summary) : `${m.credentialKindLabel(summary)}: ${state}`,
      json: {
        kind: summary.kind,
        dpop: summary.dpop,
        state: summary.state,
        ...(summary.expiresAt !== undefined ? { expires_at: summary.expiresAt } : {}),
        ...(summary.problem ? { problem: summary.problem } : {}),
      },
    });
  }
  return out;
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
