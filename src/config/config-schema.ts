// config.toml's top-level settings as zod schemas: the one source of their types, their validation (with
// today's texts) and the known top-level keys. The tables of entries (servers, environments, providers) have
// their own schemas and are read by buildConfig in between, which keeps the order problems are reported in.
// zod/v3 (inside the zod 4 package): it loads in ~6.5 ms where 'zod' (v4) takes ~40 ms, on every CLI start.
import { z } from 'zod/v3';
import { APPROVAL_POLICIES, SANDBOX_MODES, TOOL_SEARCH_MODES } from '../protocol/values.js';
import { closestName } from '../util/index.js';
import { accepted, boolean, isObjectTable, keyOf, nonNegativeNumber, objectOf, oneOf, safeString, says, string, wholeNumber } from './schema-fields.js';

/** `<key> must be a table`; an absent table is an empty one. */
function objectTable<S extends z.ZodRawShape>(shape: S) {
  return z.preprocess(
    (v) => v ?? {},
    accepted(isObjectTable, (iss) => `${keyOf(iss)} must be a table`).pipe(objectOf(shape)),
  );
}

function isHttpsUrlWithPath(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}

/** A gateway's mcp_stop_after_idle_sec when config.toml sets none (docs/gateway.md, "Servers nobody is using"). */
const DEFAULT_GATEWAY_STOP_AFTER_IDLE_SEC = 60;

const msText = (key: string) => () => `${key} must be a whole number of milliseconds between 1 and 86400000`;

/** MCP client settings, in check order (the first problem is the one reported). */
const mcpClientShape = {
  mcp_oauth_credentials_store: oneOf(['auto', 'file', 'keyring'], 'mcp_oauth_credentials_store must be "auto", "file" or "keyring"').default('auto'),
  mcp_oauth_callback_port: wholeNumber(1, 65535, (v) => `invalid MCP OAuth callback port \`${safeString(v)}\`: port must be between 1 and 65535`, { booleans: true })
    .optional()
    .transform((v) => v ?? null),
  /** Client ID Metadata Document URL used as the OAuth client_id where the server supports it (https, with a path). */
  mcp_oauth_client_metadata_url: string
    .refine(isHttpsUrlWithPath, 'mcp_oauth_client_metadata_url must be an https:// URL with a path')
    .optional()
    .transform((v) => v ?? null),
  mcp_tool_name_max_length: wholeNumber(32, 1024, () => 'mcp_tool_name_max_length must be an integer between 32 and 1024', { booleans: true })
    .optional()
    .transform((v) => v ?? 64),
  /** Background retries of a failed MCP server: the first delay, doubling up to the max (ms). */
  mcp_restart_initial_delay_ms: wholeNumber(1, 86_400_000, msText('mcp_restart_initial_delay_ms'), { booleans: false }).optional(),
  mcp_restart_max_delay_ms: wholeNumber(1, 86_400_000, msText('mcp_restart_max_delay_ms'), { booleans: false }).optional(),
  /** Node's module compile cache for local stdio servers (NODE_COMPILE_CACHE under the home's cache/). */
  mcp_node_compile_cache: boolean.default(true),
  /** A running `serve` / `mcp-server` reloading config.toml: how long a replaced server's running calls may take (ms). */
  mcp_reload_drain_timeout_ms: wholeNumber(1, 86_400_000, msText('mcp_reload_drain_timeout_ms'), { booleans: false })
    .optional()
    .transform((v) => v ?? 30_000),
  /** A gateway (`serve`, `startHttpGateway`): seconds with nothing running after which a stdio server that sets no stop_after_idle_sec is stopped; 0: never. */
  mcp_stop_after_idle_sec: nonNegativeNumber.optional().transform((v) => v ?? DEFAULT_GATEWAY_STOP_AFTER_IDLE_SEC),
};

export const mcpClientSettingsSchema = z
  .object(mcpClientShape)
  .transform((s, ctx) => {
    const initial = s.mcp_restart_initial_delay_ms ?? 1_000;
    const max = s.mcp_restart_max_delay_ms ?? Math.max(30_000, initial);
    if (max < initial) {
      ctx.addIssue({
        code: 'custom',
        path: ['mcp_restart_max_delay_ms'],
        message: 'mcp_restart_max_delay_ms must not be less than mcp_restart_initial_delay_ms',
      });
    }
    return { ...s, mcp_restart_initial_delay_ms: initial, mcp_restart_max_delay_ms: max };
  });

const approvalPolicies = APPROVAL_POLICIES.map((a) => `"${a}"`).join(', ');
const sandboxModes = SANDBOX_MODES.map((a) => `"${a}"`).join(', ');

/** A flag that is on only when set to `true` (anything else, unchecked, is off). */
const onlyTrue = z.unknown().optional().transform((v) => v === true);
const rootsText = says(() => 'writable_roots must be an array of paths');

const sandboxWorkspaceWriteShape = {
  writable_roots: z.array(z.string(rootsText), rootsText).default([]),
  network_access: onlyTrue,
  exclude_tmpdir_env_var: onlyTrue,
  exclude_slash_tmp: onlyTrue,
};
const mcpServerSectionShape = { codex_events: z.unknown().optional().transform((v) => v !== false) };

/** Sandbox and agent settings, in check order. */
const agentShape = {
  sandbox_workspace_write: objectTable(sandboxWorkspaceWriteShape),
  mcp_server: objectTable(mcpServerSectionShape),
  mcp_oauth_callback_url: string.optional().transform((v) => v ?? null),
  model: string.optional().transform((v) => v ?? null),
  approval_policy: z
    .enum(APPROVAL_POLICIES, says(() => `approval_policy must be one of ${approvalPolicies}`))
    .optional()
    .transform((v) => v ?? null),
  sandbox_mode: z
    .enum(SANDBOX_MODES, says(() => `sandbox_mode must be one of ${sandboxModes}`))
    .optional()
    .transform((v) => v ?? null),
  base_instructions: string.optional().transform((v) => v ?? null),
  developer_instructions: string.optional().transform((v) => v ?? null),
  /** MCP tools behind a `tool_search` tool: `auto` when their schemas exceed 10% of the context window. */
  tool_search: oneOf(TOOL_SEARCH_MODES, 'tool_search must be "auto", "on" or "off"').default('auto'),
  /** The model's context window in tokens, when it is not one switchboard knows. */
  model_context_window: wholeNumber(1, 100_000_000, () => 'model_context_window must be a whole number of tokens between 1 and 100000000', { booleans: true })
    .optional()
    .transform((v) => v ?? null),
};

export const agentSettingsSchema = z.object(agentShape);

const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envVarName = (key: string) =>
  z
    .string(says(() => `store.${key} must be a string: the name of an environment variable`))
    .refine((v) => ENV_VAR_NAME.test(v), (v) => ({
      message: `store.${key} must be the name of an environment variable (letters, digits and _), such as "SWITCHBOARD_DATABASE_URL", not ${JSON.stringify(v.slice(0, 40))}; the value itself stays out of config.toml`,
    }));

const storeTableShape = {
  postgres_url_env_var: envVarName('postgres_url_env_var').optional().transform((v) => v ?? null),
  /** With PostgreSQL: the variable holding the key that seals the shared upstream OAuth credentials. */
  credentials_key_env_var: envVarName('credentials_key_env_var').optional().transform((v) => v ?? null),
};

/** `[store]`: where shared state lives. No table, or no postgres_url_env_var: files under $SWITCHBOARD_HOME. */
const storeShape = { store: objectTable(storeTableShape) };

export const storeSettingsSchema = z.object(storeShape);

/** Codex top-level keys that an existing ~/.codex/config.toml may carry; accepted without a warning. */
const CODEX_TOP_LEVEL_KEYS: ReadonlySet<string> = new Set([
  'model_reasoning_effort', 'model_reasoning_summary', 'model_verbosity',
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

/** Keys buildConfig reads itself: the profile, and the tables of entries that have schemas of their own. */
const ENTRY_KEYS = ['profile', 'profiles', 'mcp_servers', 'environments', 'model_providers', 'model_provider', 'server_auth'];

const OWN_TOP_LEVEL_KEYS: ReadonlySet<string> = new Set([...ENTRY_KEYS, ...Object.keys(mcpClientShape), ...Object.keys(agentShape), ...Object.keys(storeShape)]);

export function isKnownTopLevelKey(key: string): boolean {
  return OWN_TOP_LEVEL_KEYS.has(key) || CODEX_TOP_LEVEL_KEYS.has(key);
}

/** The keys of switchboard's own small tables, which are read whole (a key they do not have is a typo). */
const OWN_TABLES: Readonly<Record<string, ReadonlySet<string>>> = {
  sandbox_workspace_write: new Set(Object.keys(sandboxWorkspaceWriteShape)),
  mcp_server: new Set(Object.keys(mcpServerSectionShape)),
  store: new Set(Object.keys(storeTableShape)),
};

/**
 * One warning per key switchboard does not know, at the top level and in its own small tables, with
 * the key meant when it is a near miss: `modle` (model), `[mcp_server.docs]` ([mcp_servers.docs]).
 */
export function unknownKeyWarnings(raw: Record<string, unknown>): string[] {
  const warnings: string[] = [];
  for (const key of Object.keys(raw)) {
    if (!isKnownTopLevelKey(key)) {
      const meant = closestName(key, OWN_TOP_LEVEL_KEYS);
      warnings.push(`unknown key ${key} ignored${meant ? `; did you mean ${meant}?` : ''}`);
      continue;
    }
    const known = OWN_TABLES[key];
    const table = raw[key];
    if (!known || !isObjectTable(table) || table instanceof Date) continue;
    for (const sub of Object.keys(table)) {
      if (known.has(sub)) continue;
      // `[mcp_server.docs]` with a command or url: a server under the one-letter-short table name.
      const value = table[sub];
      const server = key === 'mcp_server' && isObjectTable(value) && ('command' in value || 'url' in value);
      const meant = server ? `[mcp_servers.${sub}]` : closestName(sub, known);
      warnings.push(`unknown key ${key}.${sub} ignored${meant ? `; did you mean ${meant}?` : ''}`);
    }
  }
  return warnings;
}

export type McpClientSettings = z.output<typeof mcpClientSettingsSchema>;
export type AgentSettings = z.output<typeof agentSettingsSchema>;
export type StoreSettings = z.output<typeof storeSettingsSchema>;
export type SandboxWorkspaceWrite = AgentSettings['sandbox_workspace_write'];
export type CredentialsStoreMode = McpClientSettings['mcp_oauth_credentials_store'];

