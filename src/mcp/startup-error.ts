// The texts a user sees when a server fails to start (Codex's mcp_init_error_display), chosen by the
// error's code — never by matching its message.
import type { McpServerConfig } from '../config/index.js';
import { DEFAULT_STARTUP_TIMEOUT_SEC } from '../config/index.js';
import { errorMessage, SwitchboardError } from '../util/index.js';

const GITHUB_COPILOT_MCP_URL = 'https://api.githubcopilot.com/mcp/';

/** The raw startup failure: what Codex reports as `MCP startup failed: <inner>`. */
export function startupFailureText(err: unknown): string {
  return `MCP startup failed: ${errorMessage(err)}`;
}

function codeOf(err: unknown): string | undefined {
  return err instanceof SwitchboardError ? err.code : undefined;
}

export function notLoggedInText(name: string): string {
  return `The ${name} MCP server is not logged in. Run \`switchboard mcp login ${name}\`.`;
}

/** The friendly, actionable text for a startup failure. */
export function startupErrorDisplay(config: McpServerConfig, err: unknown): string {
  const name = config.name;
  const t = config.transport;
  if (
    t.type !== 'stdio' &&
    t.url === GITHUB_COPILOT_MCP_URL &&
    !t.bearer_token_env_var &&
    (!t.http_headers || Object.keys(t.http_headers).length === 0)
  ) {
    return (
      'GitHub MCP does not support OAuth. Log in by adding a personal access token ' +
      '(https://github.com/settings/personal-access-tokens) to your environment and config.toml:\n' +
      `[mcp_servers.${name}]\nbearer_token_env_var = CODEX_GITHUB_PERSONAL_ACCESS_TOKEN`
    );
  }
  switch (codeOf(err)) {
    case 'auth_required':
      // A credential that needs no login (client credentials, workload identity, identity assertion)
      // was refused: its own text says what to check, a login would not help.
      if ((config.oauth?.grant_type ?? 'authorization_code') !== 'authorization_code') return `MCP client for \`${name}\` failed to start: ${errorMessage(err)}`;
      return notLoggedInText(name);
    case 'timeout': {
      const secs = Math.round(config.startup_timeout_sec ?? DEFAULT_STARTUP_TIMEOUT_SEC);
      return `MCP client for \`${name}\` timed out after ${secs} seconds. Add or adjust \`startup_timeout_sec\` in your config.toml:\n[mcp_servers.${name}]\nstartup_timeout_sec = XX`;
    }
    default:
      return `MCP client for \`${name}\` failed to start: ${startupFailureText(err)}`;
  }
}
