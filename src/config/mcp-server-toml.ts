// Builds the raw [mcp_servers.<name>] table written to config.toml, in Codex's key order.

export interface StdioServerSpec {
  transport: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Names passed through from the parent environment. */
  env_vars?: string[];
  cwd?: string;
  enabled?: boolean;
}

export interface HttpServerSpec {
  transport: 'streamable_http' | 'sse';
  url: string;
  bearer_token_env_var?: string;
  http_headers?: Record<string, string>;
  env_http_headers?: Record<string, string>;
  oauth_client_id?: string;
  oauth_resource?: string;
  enabled?: boolean;
}

export type ServerSpec = StdioServerSpec | HttpServerSpec;

function nonEmpty<T extends object>(value: T | undefined): value is T {
  return value !== undefined && Object.keys(value).length > 0;
}

/** The table for one server; empty lists and maps are left out, as Codex writes them. */
export function serverTable(spec: ServerSpec): Record<string, unknown> {
  const t: Record<string, unknown> = {};
  if (spec.transport === 'stdio') {
    t.command = spec.command;
    if (nonEmpty(spec.args)) t.args = [...spec.args];
    if (nonEmpty(spec.env_vars)) t.env_vars = [...spec.env_vars];
    if (spec.cwd !== undefined) t.cwd = spec.cwd;
    if (spec.enabled === false) t.enabled = false;
    if (nonEmpty(spec.env)) t.env = { ...spec.env };
    return t;
  }
  t.url = spec.url;
  if (spec.transport === 'sse') t.transport = 'sse';
  if (spec.bearer_token_env_var !== undefined) t.bearer_token_env_var = spec.bearer_token_env_var;
  if (spec.oauth_resource !== undefined) t.oauth_resource = spec.oauth_resource;
  if (spec.enabled === false) t.enabled = false;
  if (nonEmpty(spec.http_headers)) t.http_headers = { ...spec.http_headers };
  if (nonEmpty(spec.env_http_headers)) t.env_http_headers = { ...spec.env_http_headers };
  if (spec.oauth_client_id !== undefined) t.oauth = { client_id: spec.oauth_client_id };
  return t;
}
