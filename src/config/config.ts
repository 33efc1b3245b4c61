// Loading config.toml: parse (with line/column errors), apply profile and -c overrides, validate, freeze.
import { readFile } from 'node:fs/promises';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { AskForApproval, SandboxMode } from '../protocol/index.js';
import { APPROVAL_POLICIES, SANDBOX_MODES } from '../protocol/values.js';
import { ConfigError } from './config-error.js';
import { defaultConfigPath } from './home.js';
import { applyOverrides, type ConfigOverride } from './overrides.js';
import { deepFreeze, parseMcpServerConfig, type McpServerConfig } from './mcp-server-config.js';
import { BUILT_IN_PROVIDERS, parseModelProvider, type ModelProviderConfig } from './model-config.js';
import { parseEnvironment, type EnvironmentConfig } from './environment-config.js';
import { locateKey } from './locate.js';

export type CredentialsStoreMode = 'auto' | 'file' | 'keyring';

export interface SandboxWorkspaceWrite {
  writable_roots: string[];
  network_access: boolean;
  exclude_tmpdir_env_var: boolean;
  exclude_slash_tmp: boolean;
}

/**
 * A validated, frozen config.toml (Codex's schema plus switchboard's keys): the MCP servers, remote
 * environments, model providers and agent defaults. Get one from {@link loadConfig} or {@link buildConfig}.
 */
export interface Config {
  home: string;
  /** The config file that was read (it may not exist). */
  file: string;
  /** In config order. */
  mcp_servers: Record<string, McpServerConfig>;
  mcp_oauth_credentials_store: CredentialsStoreMode;
  mcp_oauth_callback_port: number | null;
  mcp_oauth_callback_url: string | null;
  /** Client ID Metadata Document URL used as the OAuth client_id where the server supports it (https, with a path). */
  mcp_oauth_client_metadata_url: string | null;
  mcp_tool_name_max_length: number;
  /** Background retries of a failed MCP server: the first delay, doubling up to the max (ms). */
  mcp_restart_initial_delay_ms: number;
  mcp_restart_max_delay_ms: number;
  environments: Record<string, EnvironmentConfig>;
  model: string | null;
  model_provider: string;
  model_providers: Record<string, ModelProviderConfig>;
  approval_policy: AskForApproval | null;
  sandbox_mode: SandboxMode | null;
  sandbox_workspace_write: SandboxWorkspaceWrite;
  base_instructions: string | null;
  developer_instructions: string | null;
  mcp_server: { codex_events: boolean };
  /** The raw table after profile and overrides (kept so per-call overrides can be re-validated). */
  raw: Record<string, unknown>;
}

/** A validated config and the warnings it produced (unknown keys, deprecated spellings). */
export interface LoadedConfig {
  config: Config;
  warnings: string[];
}

/** Codex top-level keys that an existing ~/.codex/config.toml may carry; accepted without a warning. */
const CODEX_TOP_LEVEL_KEYS = new Set([
  'model_reasoning_effort', 'model_reasoning_summary', 'model_verbosity', 'model_context_window',
  'model_auto_compact_token_limit', 'model_supports_reasoning_summaries', 'review_model', 'projects', 'features',
  'tui', 'notify', 'history', 'file_opener', 'hide_agent_reasoning', 'show_raw_agent_reasoning',
  'shell_environment_policy', 'tools', 'disable_response_storage', 'preferred_auth_method', 'chatgpt_base_url',
  'instructions', 'experimental_instructions_file', 'compact_prompt', 'windows_wsl_setup_acknowledged', 'otel',
  'forced_login_method', 'forced_chatgpt_workspace_id', 'cli_auth_credentials_store', 'include_apply_patch_tool',
  'include_plan_tool', 'web_search', 'experimental_use_rmcp_client', 'experimental_use_exec_command_tool',
  'responses_originator_header_internal_override', 'notice', 'analytics', 'feedback', 'plugins', 'apps', 'hooks',
  'agents', 'skills', 'memories', 'personality', 'trust_level', 'sandbox_policy', 'approvals_reviewer',
  'service_tier', 'model_instructions_file', 'check_for_update_on_startup', 'windows', 'oss_provider',
  'show_tooltips', 'suppress_unstable_features_warning', 'tool_output_token_limit', 'ghost_snapshot', 'permissions',
  'experimental_compact_prompt_file', 'background_terminal_max_timeout', 'log_dir', 'sqlite_home',
  // Current Codex ConfigToml fields and recently retired ones that old configs still carry.
  'model_auto_compact_token_limit_scope', 'auto_review', 'allow_login_shell', 'default_permissions',
  'include_permissions_instructions', 'include_apps_instructions', 'include_collaboration_mode_instructions',
  'include_environment_context', 'project_doc_max_bytes', 'project_doc_fallback_filenames', 'js_repl_node_path',
  'js_repl_node_module_dirs', 'sqlite', 'debug', 'plan_mode_reasoning_effort', 'model_catalog_json',
  'apps_mcp_product_sku', 'openai_base_url', 'audio', 'realtime', 'experimental_realtime_ws_base_url',
  'experimental_realtime_ws_model', 'experimental_realtime_ws_backend_prompt', 'experimental_realtime_ws_startup_context',
  'experimental_realtime_start_instructions', 'experimental_thread_config_endpoint', 'experimental_thread_store_endpoint',
  'experimental_thread_store', 'tool_suggest', 'marketplaces', 'project_root_markers', 'disable_paste_burst', 'desktop',
  'experimental_use_unified_exec_tool', 'use_experimental_unified_exec_tool', 'use_experimental_streamable_shell_tool',
  'experimental_use_freeform_apply_patch', 'include_view_image_tool', 'experimental_resume', 'model_max_output_tokens',
  'experimental_sandbox_command_assessment', 'tools_web_search_request',
]);

const OWN_TOP_LEVEL_KEYS = new Set([
  'mcp_servers', 'mcp_oauth_credentials_store', 'mcp_oauth_callback_port', 'mcp_oauth_callback_url', 'mcp_oauth_client_metadata_url',
  'mcp_tool_name_max_length', 'mcp_restart_initial_delay_ms', 'mcp_restart_max_delay_ms', 'environments', 'model', 'model_provider', 'model_providers', 'approval_policy',
  'sandbox_mode', 'sandbox_workspace_write', 'profile', 'profiles', 'base_instructions', 'developer_instructions',
  'mcp_server',
]);

type Raw = Record<string, unknown>;

function table(raw: Raw, key: string): Raw {
  const v = raw[key];
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(`${key} must be a table`, { keyPath: [key] });
  return v as Raw;
}

function optString(raw: Raw, key: string): string | null {
  const v = raw[key];
  if (v === undefined) return null;
  if (typeof v !== 'string') throw new ConfigError(`${key} must be a string`, { keyPath: [key] });
  return v;
}

/** A whole number of milliseconds, 1 ms to one day. */
function msValue(raw: Raw, key: string, fallback: number): number {
  const v = raw[key];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v === 'boolean' || !Number.isInteger(n) || n < 1 || n > 86_400_000) {
    throw new ConfigError(`${key} must be a whole number of milliseconds between 1 and 86400000`, { keyPath: [key] });
  }
  return n;
}

function enumValue<T extends string>(raw: Raw, key: string, allowed: readonly T[]): T | null {
  const v = raw[key];
  if (v === undefined) return null;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new ConfigError(`${key} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`, { keyPath: [key] });
  }
  return v as T;
}

function isHttpsUrlWithPath(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}

/** Parse TOML text; a syntax error becomes a ConfigError with file, line and column. */
export function parseTomlText(text: string, file: string): Raw {
  try {
    return parseToml(text) as Raw;
  } catch (err) {
    if (err instanceof TomlError) {
      const first = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? err.message;
      throw new ConfigError(`invalid TOML: ${first}`, { file, line: err.line, column: err.column }, { cause: err });
    }
    throw new ConfigError(`cannot parse ${file}: ${String(err)}`, { file }, { cause: err });
  }
}

/** Validate a raw table (already overridden) into a frozen Config. */
export function buildConfig(raw: Raw, ctx: { home: string; file: string }): LoadedConfig {
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
  for (const key of Object.keys(effective)) {
    if (!OWN_TOP_LEVEL_KEYS.has(key) && !CODEX_TOP_LEVEL_KEYS.has(key)) warnings.push(`unknown key ${key} ignored`);
  }

  const servers: Record<string, McpServerConfig> = {};
  for (const [name, value] of Object.entries(table(effective, 'mcp_servers'))) {
    const parsed = parseMcpServerConfig(name, value);
    servers[name] = parsed.config;
    warnings.push(...parsed.warnings);
  }

  const store = optString(effective, 'mcp_oauth_credentials_store') ?? 'auto';
  if (store !== 'auto' && store !== 'file' && store !== 'keyring') {
    throw new ConfigError('mcp_oauth_credentials_store must be "auto", "file" or "keyring"', { keyPath: ['mcp_oauth_credentials_store'] });
  }
  let port: number | null = null;
  if (effective.mcp_oauth_callback_port !== undefined) {
    port = Number(effective.mcp_oauth_callback_port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new ConfigError(`invalid MCP OAuth callback port \`${String(effective.mcp_oauth_callback_port)}\`: port must be between 1 and 65535`, {
        keyPath: ['mcp_oauth_callback_port'],
      });
    }
  }
  const clientMetadataUrl = optString(effective, 'mcp_oauth_client_metadata_url');
  if (clientMetadataUrl !== null && !isHttpsUrlWithPath(clientMetadataUrl)) {
    throw new ConfigError('mcp_oauth_client_metadata_url must be an https:// URL with a path', { keyPath: ['mcp_oauth_client_metadata_url'] });
  }
  const maxLen = effective.mcp_tool_name_max_length === undefined ? 64 : Number(effective.mcp_tool_name_max_length);
  if (!Number.isInteger(maxLen) || maxLen < 32 || maxLen > 1024) {
    throw new ConfigError('mcp_tool_name_max_length must be an integer between 32 and 1024', { keyPath: ['mcp_tool_name_max_length'] });
  }

  const restartInitial = msValue(effective, 'mcp_restart_initial_delay_ms', 1_000);
  const restartMax = msValue(effective, 'mcp_restart_max_delay_ms', Math.max(30_000, restartInitial));
  if (restartMax < restartInitial) {
    throw new ConfigError('mcp_restart_max_delay_ms must not be less than mcp_restart_initial_delay_ms', { keyPath: ['mcp_restart_max_delay_ms'] });
  }

  const environments: Record<string, EnvironmentConfig> = {};
  for (const [id, value] of Object.entries(table(effective, 'environments'))) environments[id] = parseEnvironment(id, value);

  const providers: Record<string, ModelProviderConfig> = { ...BUILT_IN_PROVIDERS };
  for (const [id, value] of Object.entries(table(effective, 'model_providers'))) providers[id] = parseModelProvider(id, value);
  const providerId = optString(effective, 'model_provider') ?? 'openai';
  if (!providers[providerId]) {
    throw new ConfigError(`model provider \`${providerId}\` not found; define [model_providers.${providerId}]`, { keyPath: ['model_provider'] });
  }

  const sww = table(effective, 'sandbox_workspace_write');
  const roots = sww.writable_roots ?? [];
  if (!Array.isArray(roots) || roots.some((r) => typeof r !== 'string')) {
    throw new ConfigError('writable_roots must be an array of paths', { keyPath: ['sandbox_workspace_write', 'writable_roots'] });
  }
  const mcpServerTable = table(effective, 'mcp_server');

  const config: Config = {
    home: ctx.home,
    file: ctx.file,
    mcp_servers: servers,
    mcp_oauth_credentials_store: store,
    mcp_oauth_callback_port: port,
    mcp_oauth_callback_url: optString(effective, 'mcp_oauth_callback_url'),
    mcp_oauth_client_metadata_url: clientMetadataUrl,
    mcp_tool_name_max_length: maxLen,
    mcp_restart_initial_delay_ms: restartInitial,
    mcp_restart_max_delay_ms: restartMax,
    environments,
    model: optString(effective, 'model'),
    model_provider: providerId,
    model_providers: providers,
    approval_policy: enumValue<AskForApproval>(effective, 'approval_policy', APPROVAL_POLICIES),
    sandbox_mode: enumValue<SandboxMode>(effective, 'sandbox_mode', SANDBOX_MODES),
    sandbox_workspace_write: {
      writable_roots: roots as string[],
      network_access: sww.network_access === true,
      exclude_tmpdir_env_var: sww.exclude_tmpdir_env_var === true,
      exclude_slash_tmp: sww.exclude_slash_tmp === true,
    },
    base_instructions: optString(effective, 'base_instructions'),
    developer_instructions: optString(effective, 'developer_instructions'),
    mcp_server: { codex_events: mcpServerTable.codex_events !== false },
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
    text = await readFile(file, 'utf8');
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
    if (err instanceof ConfigError && text !== null) {
      const pos = err.location.keyPath ? locateKey(text, err.location.keyPath) : undefined;
      throw err.at({ file, ...(pos ?? {}) });
    }
    if (err instanceof ConfigError) throw err.at({ file });
    throw err;
  }
}
