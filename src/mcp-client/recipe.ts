// TransportRecipe: plain data from which a fresh transport can always be built again (recovery uses it).
import type { AuthProvider, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { McpServerConfig, StdioTransportConfig } from '../config/index.js';
import type { Logger } from '../util/index.js';
import { McpClientError } from './errors.js';
import type { StdioLauncher, StdioServerSpec } from './launchers/index.js';

export interface StdioRecipe {
  kind: 'stdio';
  spec: StdioServerSpec;
  launcher: StdioLauncher;
}

export interface HttpRecipe {
  /** `sse` is the legacy HTTP+SSE transport. */
  kind: 'streamable_http' | 'sse';
  url: string;
  /** Resolved once: http_headers, env_http_headers and the bearer token. */
  headers: Record<string, string>;
  /** OAuth for this server, when no explicit Authorization is configured. */
  authProvider?: OAuthClientProvider | AuthProvider;
}

export type TransportRecipe = StdioRecipe | HttpRecipe;

export interface RecipeDeps {
  launcher: StdioLauncher;
  /** The environment bearer_token_env_var and env_http_headers read from. */
  env: Readonly<Record<string, string | undefined>>;
  authProviderFor?: (config: McpServerConfig) => OAuthClientProvider | AuthProvider | undefined;
  logger: Logger;
}

/** What server `name`'s stdio transport config says to run. */
export function stdioSpecOf(name: string, t: StdioTransportConfig): StdioServerSpec {
  return { serverName: name, command: t.command, args: [...t.args], env: t.env ? { ...t.env } : null, envVars: [...t.env_vars], cwd: t.cwd };
}

export function recipeFromConfig(config: McpServerConfig, deps: RecipeDeps): TransportRecipe {
  const t = config.transport;
  if (t.type === 'stdio') return { kind: 'stdio', launcher: deps.launcher, spec: stdioSpecOf(config.name, t) };
  const headers: Record<string, string> = { ...(t.http_headers ?? {}) };
  for (const [header, variable] of Object.entries(t.env_http_headers ?? {})) {
    const value = deps.env[variable];
    if (value === undefined || value.trim() === '') {
      deps.logger.debug(`MCP server '${config.name}': env_http_headers ${header} skipped, ${variable} is unset or empty`);
      continue;
    }
    headers[header] = value;
  }
  if (t.bearer_token_env_var !== null) {
    headers.Authorization = `Bearer ${bearerToken(config.name, t.bearer_token_env_var, deps.env)}`;
  }
  // An explicit Authorization (bearer or header) means stored OAuth credentials are not consulted.
  const explicitAuth = Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
  const authProvider = explicitAuth ? undefined : deps.authProviderFor?.(config);
  return { kind: t.type, url: t.url, headers, ...(authProvider ? { authProvider } : {}) };
}

function bearerToken(server: string, variable: string, env: Readonly<Record<string, string | undefined>>): string {
  const value = env[variable];
  if (value === undefined) {
    throw new McpClientError('config', `Environment variable ${variable} for MCP server '${server}' is not set`);
  }
  if (value.trim() === '') {
    throw new McpClientError('config', `Environment variable ${variable} for MCP server '${server}' is empty`);
  }
  return value;
}

/** The access token the provider would send now (to tell whether newer credentials were saved). */
export async function currentAccessToken(provider: OAuthClientProvider | AuthProvider): Promise<string | undefined> {
  if ('tokens' in provider && typeof provider.tokens === 'function') return (await provider.tokens())?.access_token;
  if ('token' in provider && typeof provider.token === 'function') return provider.token();
  return undefined;
}
