// Validation of one [mcp_servers.<name>] entry against its schema (mcp-server-schema.ts), and its defaults.
import { ConfigError } from './config-error.js';
import {
  HTTP_ONLY_KEYS,
  KNOWN_SERVER_KEYS,
  serverSettingsSchema,
  STDIO_ONLY_KEYS,
  httpTransportSchema,
  stdioTransportSchema,
  type McpServerSettings,
  type McpTransportConfig,
} from './mcp-server-schema.js';
import { closestName } from '../util/index.js';
import { isTable, parseTable } from './schema-fields.js';
import { checkUpstreamIdentity } from './upstream-identity-config.js';

export type {
  EnvVarSource,
  EnvVarSpec,
  HttpTransportConfig,
  McpTransportConfig,
  OAuthConfig,
  OAuthIdpConfig,
  StartupMode,
  StdioTransportConfig,
  TokenExchangeConfig,
  UpstreamIdentityMode,
} from './mcp-server-schema.js';
export { callerIdentityKind, type CallerIdentityKind } from './upstream-identity-config.js';
export { PRIVATE_KEY_ALGS } from './mcp-server-schema.js';

export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/**
 * One validated, frozen `[mcp_servers.<name>]` table: how to reach the server (stdio command or
 * HTTP URL), and how switchboard treats it (timeouts, tool filters, startup mode, OAuth).
 */
export interface McpServerConfig extends McpServerSettings {
  name: string;
  transport: McpTransportConfig;
}

export const DEFAULT_STARTUP_TIMEOUT_SEC = 30;
export const DEFAULT_TOOL_TIMEOUT_SEC = 300;

/** One validated `[mcp_servers.<name>]` table and its warnings. */
export interface ParsedServer {
  config: McpServerConfig;
  warnings: string[];
}

const INLINE_TOKEN_HINT = '; put the token in an environment variable and set bearer_token_env_var';

/**
 * `command` makes a stdio server, else `url` an HTTP one; the other kind's keys are errors, with Codex's
 * texts (`<field> is not supported for stdio|streamable_http`: with both, the url is the unsupported one).
 */
function transportKind(name: string, raw: Record<string, unknown>): 'stdio' | 'streamable_http' {
  const fail = (key: string | undefined, message: string): never => {
    throw new ConfigError(message, { keyPath: key ? ['mcp_servers', name, key] : ['mcp_servers', name] });
  };
  const kind = raw.command !== undefined ? 'stdio' : raw.url !== undefined ? 'streamable_http' : fail(undefined, noTransportText(raw));
  for (const key of kind === 'stdio' ? HTTP_ONLY_KEYS : STDIO_ONLY_KEYS) if (key in raw) fail(key, `${key} is not supported for ${kind}`);
  if ('bearer_token' in raw) fail('bearer_token', `bearer_token is not supported for ${kind}${INLINE_TOKEN_HINT}`);
  return kind;
}

/** Codex's `invalid transport`, then what to set, and the key meant when one is misspelt (`comand`). */
function noTransportText(raw: Record<string, unknown>): string {
  const misspelt = Object.keys(raw)
    .filter((k) => !KNOWN_SERVER_KEYS.has(k))
    .map((k) => ({ key: k, meant: closestName(k, ['command', 'url']) }))
    .find((m) => m.meant !== undefined);
  const hint = misspelt ? `; \`${misspelt.key}\` is not a key: did you mean \`${misspelt.meant}\`?` : '';
  return `invalid transport: set \`command\` (a stdio server) or \`url\` (an HTTP server)${hint}`;
}

/** Validate one raw [mcp_servers.<name>] table into a typed, frozen config. */
export function parseMcpServerConfig(name: string, raw: unknown): ParsedServer {
  const where = ['mcp_servers', name];
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new ConfigError(`Invalid MCP server name '${name}': must match pattern ^[a-zA-Z0-9_-]+$`, { keyPath: where });
  }
  if (!isTable(raw)) throw new ConfigError(`mcp_servers.${name} must be a table`, { keyPath: where });
  const transportSchema = transportKind(name, raw) === 'stdio' ? stdioTransportSchema : httpTransportSchema;
  const transport = parseTable(transportSchema, raw, where);
  const settings = parseTable(serverSettingsSchema, raw, where);
  const warnings = Object.keys(raw)
    .filter((k) => !KNOWN_SERVER_KEYS.has(k))
    .map((k) => `unknown key mcp_servers.${name}.${k} ignored`);
  const config: McpServerConfig = {
    name,
    transport,
    enabled: settings.enabled,
    required: settings.required,
    startup_timeout_sec: settings.startup_timeout_sec,
    tool_timeout_sec: settings.tool_timeout_sec,
    stop_after_idle_sec: settings.stop_after_idle_sec,
    enabled_tools: settings.enabled_tools,
    disabled_tools: settings.disabled_tools,
    startup_mode: settings.startup_mode,
    environment: settings.environment,
    oauth: settings.oauth,
    oauth_resource: settings.oauth_resource,
    identity: settings.identity,
    token_exchange: settings.token_exchange,
    scopes: settings.scopes,
    supports_parallel_tool_calls: settings.supports_parallel_tool_calls,
    always_loaded: settings.always_loaded,
  };
  checkUpstreamIdentity(config);
  return { config: deepFreeze(config), warnings };
}

export function startupTimeoutMs(config: McpServerConfig): number {
  return (config.startup_timeout_sec ?? DEFAULT_STARTUP_TIMEOUT_SEC) * 1000;
}

/**
 * How long the server may have nothing running before it is stopped; undefined: never. A server
 * that sets no stop_after_idle_sec takes `stdioDefaultSec` when it is a stdio server (a gateway's
 * mcp_stop_after_idle_sec), and is never stopped otherwise; 0 is never.
 */
export function stopAfterIdleMs(config: McpServerConfig, stdioDefaultSec?: number): number | undefined {
  const seconds = config.stop_after_idle_sec ?? (config.transport.type === 'stdio' ? stdioDefaultSec : undefined);
  return seconds ? seconds * 1000 : undefined;
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
