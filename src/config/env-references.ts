// The environment variables a server's config names and cannot start without (a bearer token, an
// OAuth client secret or subject token, an exec-server token), each with the key that names it.
import type { EnvironmentConfig } from './environment-config.js';
import type { McpServerConfig } from './mcp-server-config.js';

export interface VariableReference {
  variable: string;
  /** The key naming it, e.g. `mcp_servers.docs.bearer_token_env_var`. */
  keyPath: string[];
}

export function requiredVariables(server: McpServerConfig, environments: Readonly<Record<string, EnvironmentConfig>>): VariableReference[] {
  const out: VariableReference[] = [];
  const at = (variable: string | null | undefined, ...keys: string[]) => {
    if (variable) out.push({ variable, keyPath: ['mcp_servers', server.name, ...keys] });
  };
  const t = server.transport;
  if (t.type !== 'stdio') at(t.bearer_token_env_var, 'bearer_token_env_var');
  const oauth = server.oauth;
  at(oauth?.client_secret_env_var, 'oauth', 'client_secret_env_var');
  at(oauth?.idp?.client_secret_env_var, 'oauth', 'idp', 'client_secret_env_var');
  at(oauth?.idp?.subject_token_env_var, 'oauth', 'idp', 'subject_token_env_var');
  const env = server.environment === null ? undefined : environments[server.environment];
  if (env?.type === 'exec-server' && env.token_env_var) out.push({ variable: env.token_env_var, keyPath: ['environments', env.id, 'token_env_var'] });
  return out;
}
