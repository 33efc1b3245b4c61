// The [mcp_servers.<name>] schema (Codex's, plus startup_mode/environment/transport) and its validation.
import { ConfigError } from './config-error.js';

export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

export type EnvVarSource = 'local' | 'remote';
export interface EnvVarSpec {
  name: string;
  source: EnvVarSource;
}

export interface StdioTransportConfig {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string> | null;
  env_vars: EnvVarSpec[];
  cwd: string | null;
}

export interface HttpTransportConfig {
  /** `sse` is the legacy HTTP+SSE transport, chosen explicitly with `transport = "sse"`. */
  type: 'streamable_http' | 'sse';
  url: string;
  bearer_token_env_var: string | null;
  http_headers: Record<string, string> | null;
  env_http_headers: Record<string, string> | null;
}

export type McpTransportConfig = StdioTransportConfig | HttpTransportConfig;

export interface OAuthConfig {
  client_id?: string;
  /** For the client_credentials grant: the variable holding the client secret. */
  client_secret_env_var?: string;
  grant_type?: 'authorization_code' | 'client_credentials';
}

export type StartupMode = 'eager' | 'lazy';

/**
 * One validated, frozen `[mcp_servers.<name>]` table: how to reach the server (stdio command or
 * HTTP URL), and how switchboard treats it (timeouts, tool filters, startup mode, OAuth).
 */
export interface McpServerConfig {
  name: string;
  transport: McpTransportConfig;
  enabled: boolean;
  required: boolean;
  /** Seconds; null means the default (30 s). */
  startup_timeout_sec: number | null;
  /** Seconds; null means the default (300 s). */
  tool_timeout_sec: number | null;
  enabled_tools: string[] | null;
  disabled_tools: string[] | null;
  startup_mode: StartupMode;
  environment: string | null;
  oauth: OAuthConfig | null;
  oauth_resource: string | null;
  scopes: string[] | null;
  supports_parallel_tool_calls: boolean;
}

export const DEFAULT_STARTUP_TIMEOUT_SEC = 30;
export const DEFAULT_TOOL_TIMEOUT_SEC = 300;

const STDIO_KEYS = ['command', 'args', 'env', 'env_vars', 'cwd'] as const;
const HTTP_KEYS = ['url', 'bearer_token_env_var', 'http_headers', 'env_http_headers', 'oauth', 'oauth_resource', 'transport'] as const;
const SHARED_KEYS = [
  'enabled',
  'required',
  'startup_timeout_sec',
  'startup_timeout_ms',
  'tool_timeout_sec',
  'enabled_tools',
  'disabled_tools',
  'startup_mode',
  'environment',
  'scopes',
  // Codex keys we accept without using (no warning for them).
  'supports_parallel_tool_calls',
  'default_tools_approval_mode',
  'tools',
  'experimental_environment',
  'environment_id',
  'name',
] as const;
const KNOWN_KEYS = new Set<string>([...STDIO_KEYS, ...HTTP_KEYS, ...SHARED_KEYS, 'bearer_token']);

type Raw = Record<string, unknown>;

function isTable(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

class ServerReader {
  constructor(
    readonly name: string,
    readonly raw: Raw,
  ) {}

  fail(key: string | undefined, message: string): never {
    throw new ConfigError(message, { keyPath: key ? ['mcp_servers', this.name, key] : ['mcp_servers', this.name] });
  }

  string(key: string): string | null {
    const v = this.raw[key];
    if (v === undefined) return null;
    if (typeof v !== 'string') this.fail(key, `${key} must be a string`);
    return v;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.raw[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(key, `${key} must be true or false`);
    return v;
  }

  number(key: string): number | null {
    const v = this.raw[key];
    if (v === undefined) return null;
    const n = typeof v === 'bigint' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) this.fail(key, `${key} must be a non-negative number`);
    return n;
  }

  stringArray(key: string): string[] | null {
    const v = this.raw[key];
    if (v === undefined) return null;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) this.fail(key, `${key} must be an array of strings`);
    return v as string[];
  }

  stringTable(key: string): Record<string, string> | null {
    const v = this.raw[key];
    if (v === undefined) return null;
    if (!isTable(v)) this.fail(key, `${key} must be a table of strings`);
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(v)) {
      if (typeof val !== 'string') this.fail(key, `${key}.${k} must be a string`);
      out[k] = val;
    }
    return out;
  }

  envVars(): EnvVarSpec[] {
    const v = this.raw.env_vars;
    if (v === undefined) return [];
    if (!Array.isArray(v)) this.fail('env_vars', 'env_vars must be an array of names or { name, source } tables');
    return v.map((entry): EnvVarSpec => {
      if (typeof entry === 'string') return { name: entry, source: 'local' };
      if (isTable(entry) && typeof entry.name === 'string') {
        const source = entry.source ?? 'local';
        if (source !== 'local' && source !== 'remote') {
          this.fail('env_vars', `unsupported env_vars source \`${String(source)}\`; expected \`local\` or \`remote\``);
        }
        return { name: entry.name, source };
      }
      return this.fail('env_vars', 'env_vars entries must be a name or { name = "NAME", source = "local" | "remote" }');
    });
  }
}

function readOAuth(r: ServerReader): OAuthConfig | null {
  const v = r.raw.oauth;
  if (v === undefined) return null;
  if (!isTable(v)) r.fail('oauth', 'oauth must be a table such as { client_id = "..." }');
  const out: OAuthConfig = {};
  for (const key of ['client_id', 'client_secret_env_var'] as const) {
    if (v[key] !== undefined) {
      if (typeof v[key] !== 'string') r.fail('oauth', `oauth.${key} must be a string`);
      out[key] = v[key];
    }
  }
  if (v.grant_type !== undefined) {
    if (v.grant_type !== 'authorization_code' && v.grant_type !== 'client_credentials') {
      r.fail('oauth', 'oauth.grant_type must be "authorization_code" or "client_credentials"');
    }
    out.grant_type = v.grant_type;
  }
  return out;
}

function readTransport(r: ServerReader): McpTransportConfig {
  const raw = r.raw;
  const hasCommand = raw.command !== undefined;
  if (!hasCommand && raw.url === undefined) r.fail(undefined, 'invalid transport');
  // Codex's texts: `<field> is not supported for stdio|streamable_http`; with both command and url
  // the command wins and the url is the unsupported field.
  const inlineToken = '; put the token in an environment variable and set bearer_token_env_var';
  if (hasCommand) {
    for (const key of HTTP_KEYS) if (key in raw) r.fail(key, `${key} is not supported for stdio`);
    if ('bearer_token' in raw) r.fail('bearer_token', `bearer_token is not supported for stdio${inlineToken}`);
    const command = r.string('command')!;
    return { type: 'stdio', command, args: r.stringArray('args') ?? [], env: r.stringTable('env'), env_vars: r.envVars(), cwd: r.string('cwd') };
  }
  for (const key of STDIO_KEYS) if (key in raw) r.fail(key, `${key} is not supported for streamable_http`);
  if ('bearer_token' in raw) r.fail('bearer_token', `bearer_token is not supported for streamable_http${inlineToken}`);
  const url = r.string('url')!;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    r.fail('url', `url must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
  }
  const transport = r.string('transport') ?? 'streamable_http';
  if (transport !== 'streamable_http' && transport !== 'sse') r.fail('transport', 'transport must be "streamable_http" or "sse"');
  return {
    type: transport,
    url,
    bearer_token_env_var: r.string('bearer_token_env_var'),
    http_headers: r.stringTable('http_headers'),
    env_http_headers: r.stringTable('env_http_headers'),
  };
}

/** One validated `[mcp_servers.<name>]` table and its warnings. */
export interface ParsedServer {
  config: McpServerConfig;
  warnings: string[];
}

/** Validate one raw [mcp_servers.<name>] table into a typed, frozen config. */
export function parseMcpServerConfig(name: string, raw: unknown): ParsedServer {
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new ConfigError(`Invalid MCP server name '${name}': must match pattern ^[a-zA-Z0-9_-]+$`, { keyPath: ['mcp_servers', name] });
  }
  if (!isTable(raw)) throw new ConfigError(`mcp_servers.${name} must be a table`, { keyPath: ['mcp_servers', name] });
  const r: ServerReader = new ServerReader(name, raw);
  const transport = readTransport(r);
  let startup = r.number('startup_timeout_sec');
  if (startup === null) {
    const ms = r.number('startup_timeout_ms');
    if (ms !== null) startup = ms / 1000;
  }
  const modeRaw = r.string('startup_mode') ?? 'eager';
  if (modeRaw !== 'eager' && modeRaw !== 'lazy') r.fail('startup_mode', 'startup_mode must be "eager" or "lazy"');
  const mode: StartupMode = modeRaw;
  const environment = r.string('environment') ?? r.string('environment_id') ?? r.string('experimental_environment');
  const warnings = Object.keys(raw)
    .filter((k) => !KNOWN_KEYS.has(k))
    .map((k) => `unknown key mcp_servers.${name}.${k} ignored`);
  const config: McpServerConfig = {
    name,
    transport,
    enabled: r.bool('enabled', true),
    required: r.bool('required', false),
    startup_timeout_sec: startup,
    tool_timeout_sec: r.number('tool_timeout_sec'),
    enabled_tools: r.stringArray('enabled_tools'),
    disabled_tools: r.stringArray('disabled_tools'),
    startup_mode: mode,
    environment,
    oauth: readOAuth(r),
    oauth_resource: r.string('oauth_resource'),
    scopes: r.stringArray('scopes'),
    supports_parallel_tool_calls: r.bool('supports_parallel_tool_calls', false),
  };
  return { config: deepFreeze(config), warnings };
}

export function startupTimeoutMs(config: McpServerConfig): number {
  return (config.startup_timeout_sec ?? DEFAULT_STARTUP_TIMEOUT_SEC) * 1000;
}

export function toolTimeoutMs(config: McpServerConfig): number {
  return (config.tool_timeout_sec ?? DEFAULT_TOOL_TIMEOUT_SEC) * 1000;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
