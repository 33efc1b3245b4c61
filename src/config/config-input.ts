// config.toml's shape as TypeScript types, for a config built in code with buildConfig: a misspelt key
// in an object literal is a compile error. Checking the values stays buildConfig's (the file's rules and texts).
import type { AskForApprovalValue, SandboxModeValue, ToolSearchModeValue } from '../protocol/values.js';

/** Keys every `[mcp_servers.<name>]` table may have (docs/configuration.md). */
interface ServerInputSettings {
  /** Default true; a disabled server is invisible. */
  enabled?: boolean;
  /** Default false; hosts can wait for required servers and fail if one fails. */
  required?: boolean;
  /** Seconds for initialize and the first tools/list; default 30. */
  startup_timeout_sec?: number;
  /** Legacy milliseconds spelling, read when `startup_timeout_sec` is absent. */
  startup_timeout_ms?: number;
  /** Seconds per tool call; default 300. */
  tool_timeout_sec?: number;
  /** Seconds with nothing running after which the server is stopped (its next use starts it again); 0: never; unset: a gateway's (`serve`, `startHttpGateway`) mcp_stop_after_idle_sec for a stdio server, else never. */
  stop_after_idle_sec?: number;
  enabled_tools?: string[];
  disabled_tools?: string[];
  startup_mode?: 'eager' | 'lazy';
  /** An `[environments.<id>]` to run a stdio server on; `environment_id` and `experimental_environment` are Codex's aliases. */
  environment?: string;
  environment_id?: string;
  experimental_environment?: string;
  scopes?: string[];
  /** With tool search on, this server's tools are always given to the model. */
  always_loaded?: boolean;
  /** Codex keys accepted without being used. */
  supports_parallel_tool_calls?: boolean;
  default_tools_approval_mode?: unknown;
  tools?: unknown;
  name?: unknown;
}

/** A stdio server: a program switchboard starts. */
export interface StdioServerInput extends ServerInputSettings {
  command: string;
  args?: string[];
  /** Literal variables, applied last. */
  env?: Record<string, string>;
  /** Names copied from the parent environment (`remote`: from the executor's). */
  env_vars?: (string | { name: string; source?: 'local' | 'remote' })[];
  cwd?: string;
}

/** A Streamable HTTP (or legacy HTTP+SSE) server. */
export interface HttpServerInput extends ServerInputSettings {
  url: string;
  transport?: 'streamable_http' | 'sse';
  /** Sends `Authorization: Bearer $VAR`. */
  bearer_token_env_var?: string;
  http_headers?: Record<string, string>;
  /** Header name → the variable holding its value. */
  env_http_headers?: Record<string, string>;
  oauth?: { client_id?: string; client_secret_env_var?: string; grant_type?: 'authorization_code' | 'client_credentials' };
  oauth_resource?: string;
  /** Whose credential reaches the server when switchboard serves callers (docs/server-auth.md). */
  identity?: 'operator' | 'caller';
  /** RFC 8693: each caller's token exchanged for one aimed at the server (with identity = "caller"). */
  token_exchange?: { token_endpoint?: string; issuer?: string; audience?: string; resource?: string; scopes?: string[]; client_id?: string; client_secret_env_var?: string };
}

/** One `[mcp_servers.<name>]` table. */
export type McpServerInput = StdioServerInput | HttpServerInput;

/** One `[environments.<id>]` table: an exec-server (`url`) or an SSH host (`host`). */
export interface EnvironmentInput {
  type?: 'exec-server' | 'ssh';
  url?: string;
  token_env_var?: string;
  host?: string;
  user?: string;
  port?: number;
  identity_file?: string;
}

/** One `[model_providers.<id>]` table (Codex's keys; docs/agent.md). */
export interface ModelProviderInput {
  name?: string;
  base_url?: string;
  env_key?: string;
  wire_api?: 'responses' | 'chat';
  query_params?: Record<string, string>;
  http_headers?: Record<string, string>;
  env_http_headers?: Record<string, string>;
  request_max_retries?: number;
  stream_max_retries?: number;
  stream_idle_timeout_ms?: number;
}

/** The keys a profile may set: the top-level settings. */
export interface ConfigSettingsInput {
  mcp_servers?: Record<string, McpServerInput>;
  environments?: Record<string, EnvironmentInput>;
  model?: string;
  model_provider?: string;
  model_providers?: Record<string, ModelProviderInput>;
  approval_policy?: AskForApprovalValue;
  sandbox_mode?: SandboxModeValue;
  sandbox_workspace_write?: { writable_roots?: string[]; network_access?: boolean; exclude_tmpdir_env_var?: boolean; exclude_slash_tmp?: boolean };
  base_instructions?: string;
  developer_instructions?: string;
  tool_search?: ToolSearchModeValue;
  model_context_window?: number;
  mcp_oauth_credentials_store?: 'auto' | 'file' | 'keyring';
  mcp_oauth_callback_port?: number;
  mcp_oauth_callback_url?: string;
  mcp_oauth_client_metadata_url?: string;
  mcp_tool_name_max_length?: number;
  mcp_node_compile_cache?: boolean;
  mcp_restart_initial_delay_ms?: number;
  mcp_restart_max_delay_ms?: number;
  mcp_reload_drain_timeout_ms?: number;
  /** A gateway (`serve`, `startHttpGateway`): a stdio server that sets no stop_after_idle_sec is stopped after this many seconds with nothing running (default 60; 0: never). */
  mcp_stop_after_idle_sec?: number;
  /** `switchboard mcp-server`: send `codex/event` notifications (default true). */
  mcp_server?: { codex_events?: boolean };
  /** OAuth for the HTTP servers switchboard offers (docs/server-auth.md). */
  server_auth?: Record<string, unknown>;
  store?: { postgres_url_env_var?: string; credentials_key_env_var?: string };
}

/**
 * A config.toml as an object, for {@link buildConfig}: the same keys as the file. A table parsed from
 * TOML (`Record<string, unknown>`) is accepted too; the values are checked when it is built.
 */
export interface ConfigInput extends ConfigSettingsInput {
  profile?: string;
  profiles?: Record<string, ConfigSettingsInput>;
}
