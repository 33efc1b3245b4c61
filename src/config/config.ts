// Loading config.toml: parse (with line/column errors), apply profile and -c overrides, validate, freeze.
import { readFileSync } from 'node:fs';
import { parse as parseToml, TomlError } from 'smol-toml';
import { ConfigError } from './config-error.js';
import type { ConfigInput } from './config-input.js';
import { defaultConfigPath } from './home.js';
import { applyOverrides, blameOverride, overrideAt, type ConfigOverride } from './overrides.js';
import { deepFreeze, parseMcpServerConfig, type McpServerConfig } from './mcp-server-config.js';
import { BUILT_IN_PROVIDERS, parseModelProvider, type ModelProviderConfig } from './model-config.js';
import { parseEnvironment, type EnvironmentConfig } from './environment-config.js';
import {
  agentSettingsSchema,
  unknownKeyWarnings,
  mcpClientSettingsSchema,
  storeSettingsSchema,
  type AgentSettings,
  type McpClientSettings,
  type StoreSettings,
} from './config-schema.js';
import { isObjectTable, parseTable } from './schema-fields.js';
import { locateKey } from './locate.js';
import { unclosedBracket } from './toml-unclosed.js';
import { parseServerAuth, type ServerAuthSettings } from './server-auth-config.js';

export type { CredentialsStoreMode, SandboxWorkspaceWrite } from './config-schema.js';

/**
 * A validated, frozen config.toml (Codex's schema plus switchboard's keys): the MCP servers, remote
 * environments, model providers and agent defaults. Get one from {@link loadConfig} or {@link buildConfig}.
 */
export interface Config extends McpClientSettings, AgentSettings, StoreSettings {
  home: string;
  /** The config file that was read (it may not exist); empty for a config built in code without one. */
  file: string;
  /** In config order. */
  mcp_servers: Record<string, McpServerConfig>;
  environments: Record<string, EnvironmentConfig>;
  model_provider: string;
  model_providers: Record<string, ModelProviderConfig>;
  /** `[server_auth]`: OAuth for the HTTP servers, per-caller rules, limits, audit; null when absent. */
  server_auth: ServerAuthSettings | null;
  /** The raw table after profile and overrides (kept so per-call overrides can be re-validated). */
  raw: Record<string, unknown>;
}

/** A validated config and the warnings it produced (unknown keys, deprecated spellings). */
export interface LoadedConfig {
  config: Config;
  warnings: string[];
}

type Raw = Record<string, unknown>;

function table(raw: Raw, key: string): Raw {
  const v = raw[key];
  if (v === undefined) return {};
  if (!isObjectTable(v)) throw new ConfigError(`${key} must be a table`, { keyPath: [key] });
  return v;
}

function optString(raw: Raw, key: string): string | null {
  const v = raw[key];
  if (v === undefined) return null;
  if (typeof v !== 'string') throw new ConfigError(`${key} must be a string`, { keyPath: [key] });
  return v;
}

/**
 * [server_auth] rules name items as `<server>__<name>`, split at the first `__`: a server name holding
 * `__` would make `stripe__*` ambiguous between `stripe` and `stripe__admin`, so it is refused there.
 */
function refuseAmbiguousServerNames(names: readonly string[]): void {
  const bad = names.find((n) => n.includes('__'));
  if (bad === undefined) return;
  throw new ConfigError(
    `MCP server name '${bad}' contains "__", which [server_auth] rules use to separate a server from a tool ("${bad}__*" would read as server '${bad.split('__')[0]}'); rename the server (e.g. '${bad.replaceAll('__', '_')}')`,
    { keyPath: ['mcp_servers', bad] },
  );
}

/** Parse TOML text; a syntax error becomes a ConfigError with file, line and column. */
export function parseTomlText(text: string, file: string): Raw {
  try {
    return parseToml(text) as Raw;
  } catch (err) {
    if (err instanceof TomlError) {
      const first = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? err.message;
      // The parser gives up where the file goes on (often at its end); the bracket never closed is what to fix.
      const open = unclosedBracket(text);
      if (open && (open.line < err.line || (open.line === err.line && open.column < err.column))) {
        const detail = `invalid TOML: this ${open.kind} is never closed (the parser stopped at line ${err.line}, column ${err.column}: ${first})`;
        throw new ConfigError(detail, { file, line: open.line, column: open.column }, { cause: err });
      }
      throw new ConfigError(`invalid TOML: ${first}`, { file, line: err.line, column: err.column }, { cause: err });
    }
    throw new ConfigError(`cannot parse ${file}: ${String(err)}`, { file }, { cause: err });
  }
}

/**
 * Validate a config (the tables of a config.toml, with -c overrides applied) into a frozen Config, with
 * the file's rules and texts. `home` is `$SWITCHBOARD_HOME` (snapshots, tokens, logs); `file` names
 * the file it came from, if any.
 *
 * @example
 * ```ts
 * const { config, warnings } = buildConfig({ mcp_servers: { docs: { command: 'docs-server', args: ['--stdio'] } } }, { home: resolveHome() });
 * ```
 */
export function buildConfig(input: ConfigInput, ctx: { home: string; file?: string }): LoadedConfig {
  const raw = input as Raw;
  const warnings: string[] = [];
  let effective = raw;
  const profileName = optString(raw, 'profile');
  if (profileName !== null) {
    const profiles = table(raw, 'profiles');
    const profile = profiles[profileName];
    if (typeof profile !== 'object' || profile === null) {
      throw new ConfigError(`config profile \`${profileName}\` not found`, { keyPath: ['profile'] });
    }
    effective = { ...raw, ...(profile as Raw) };
  }
  warnings.push(...unknownKeyWarnings(effective));

  const servers: Record<string, McpServerConfig> = {};
  for (const [name, value] of Object.entries(table(effective, 'mcp_servers'))) {
    const parsed = parseMcpServerConfig(name, value);
    servers[name] = parsed.config;
    warnings.push(...parsed.warnings);
  }
  const mcp = parseTable(mcpClientSettingsSchema, effective, []);

  const environments: Record<string, EnvironmentConfig> = {};
  for (const [id, value] of Object.entries(table(effective, 'environments'))) environments[id] = parseEnvironment(id, value);

  const providers: Record<string, ModelProviderConfig> = { ...BUILT_IN_PROVIDERS };
  for (const [id, value] of Object.entries(table(effective, 'model_providers'))) providers[id] = parseModelProvider(id, value);
  const providerId = optString(effective, 'model_provider') ?? 'openai';
  if (!providers[providerId]) {
    throw new ConfigError(`model provider \`${providerId}\` not found; define [model_providers.${providerId}]`, { keyPath: ['model_provider'] });
  }
  const agent = parseTable(agentSettingsSchema, effective, [], 2);
  const serverAuth = parseServerAuth(effective.server_auth);
  if (serverAuth && serverAuth.rules.length > 0) refuseAmbiguousServerNames(Object.keys(servers));
  const store = parseTable(storeSettingsSchema, effective, [], 2);

  const config: Config = {
    home: ctx.home,
    file: ctx.file ?? '',
    mcp_servers: servers,
    mcp_oauth_credentials_store: mcp.mcp_oauth_credentials_store,
    mcp_oauth_callback_port: mcp.mcp_oauth_callback_port,
    mcp_oauth_callback_url: agent.mcp_oauth_callback_url,
    mcp_oauth_client_metadata_url: mcp.mcp_oauth_client_metadata_url,
    mcp_tool_name_max_length: mcp.mcp_tool_name_max_length,
    mcp_restart_initial_delay_ms: mcp.mcp_restart_initial_delay_ms,
    mcp_restart_max_delay_ms: mcp.mcp_restart_max_delay_ms,
    mcp_node_compile_cache: mcp.mcp_node_compile_cache,
    mcp_reload_drain_timeout_ms: mcp.mcp_reload_drain_timeout_ms,
    mcp_stop_after_idle_sec: mcp.mcp_stop_after_idle_sec,
    environments,
    model: agent.model,
    model_provider: providerId,
    model_providers: providers,
    approval_policy: agent.approval_policy,
    sandbox_mode: agent.sandbox_mode,
    sandbox_workspace_write: agent.sandbox_workspace_write,
    base_instructions: agent.base_instructions,
    developer_instructions: agent.developer_instructions,
    mcp_server: agent.mcp_server,
    tool_search: agent.tool_search,
    model_context_window: agent.model_context_window,
    server_auth: serverAuth,
    store: store.store,
    raw: effective,
  };
  return { config: deepFreeze(config), warnings };
}

/** Where {@link loadConfig} reads from. */
export interface LoadConfigOptions {
  home: string;
  /** --config FILE; default $home/config.toml. */
  file?: string;
  overrides?: readonly ConfigOverride[];
}

/** Read, parse and validate the config file. A missing file is an empty config. */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig & { text: string | null }> {
  const file = options.file ?? defaultConfigPath(options.home);
  let text: string | null = null;
  try {
    // Read synchronously: a small file, and a command that only prints then starts none of libuv's
    // worker threads (docs/performance.md, "Issue 37, twenty-fourth round"). Still a promise: a
    // failure rejects, as it always has.
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new ConfigError(`cannot read config file: ${(err as Error).message}`, { file }, { cause: err });
    if (options.file !== undefined) throw new ConfigError('config file not found', { file }, { cause: err });
  }
  const raw = text === null ? {} : parseTomlText(text, file);
  const overridden = applyOverrides(raw, options.overrides ?? []);
  try {
    return { ...buildConfig(overridden, { home: options.home, file }), text };
  } catch (err) {
    const blamed = err instanceof ConfigError && err.location.keyPath ? overrideAt(err.location.keyPath, options.overrides ?? [], raw) : undefined;
    if (blamed) throw blameOverride(err as ConfigError, blamed);
    if (err instanceof ConfigError && text !== null) {
      const pos = err.location.keyPath ? locateKey(text, err.location.keyPath) : undefined;
      throw err.at({ file, ...(pos ?? {}) });
    }
    if (err instanceof ConfigError) throw err.at({ file });
    throw err;
  }
}
