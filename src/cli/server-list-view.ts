// How `mcp list` and `mcp get` show servers: Codex's JSON shapes, its two tables, its detail lines.
import type { EnvVarSpec, McpServerConfig, McpTransportConfig } from '../config/index.js';
import { assertNever } from '../util/index.js';
import { authStatusLabel, type AuthStatus } from './auth-status.js';

const MASK = '*****';

/** Codex writes env_vars back as written: a bare name, or `{name, source}` for a remote source. */
function envVarJson(v: EnvVarSpec): string | { name: string; source: string } {
  return v.source === 'local' ? v.name : { name: v.name, source: v.source };
}

export function transportJson(t: McpTransportConfig): Record<string, unknown> {
  switch (t.type) {
    case 'stdio':
      return { type: 'stdio', command: t.command, args: t.args, env: t.env, env_vars: t.env_vars.map(envVarJson), cwd: t.cwd };
    case 'streamable_http':
    case 'sse':
      return {
        type: t.type,
        url: t.url,
        bearer_token_env_var: t.bearer_token_env_var,
        http_headers: t.http_headers,
        env_http_headers: t.env_http_headers,
      };
    default:
      return assertNever(t, 'transport');
  }
}

/** One element of `mcp list --json`. */
export function listEntryJson(server: McpServerConfig, auth: AuthStatus): Record<string, unknown> {
  return {
    name: server.name,
    enabled: server.enabled,
    disabled_reason: null,
    transport: transportJson(server.transport),
    startup_timeout_sec: server.startup_timeout_sec,
    tool_timeout_sec: server.tool_timeout_sec,
    auth_status: auth,
    ...(server.environment !== null ? { environment: server.environment } : {}),
  };
}

/** `mcp get --json`: the list shape without auth, plus the tool filters (and stop_after_idle_sec when set). */
export function getJson(server: McpServerConfig): Record<string, unknown> {
  return {
    name: server.name,
    enabled: server.enabled,
    disabled_reason: null,
    transport: transportJson(server.transport),
    enabled_tools: server.enabled_tools,
    disabled_tools: server.disabled_tools,
    startup_timeout_sec: server.startup_timeout_sec,
    tool_timeout_sec: server.tool_timeout_sec,
    ...(server.environment !== null ? { environment: server.environment } : {}),
    ...(server.stop_after_idle_sec !== null ? { stop_after_idle_sec: server.stop_after_idle_sec } : {}),
  };
}

/** `K=*****, ...` for env (sorted) then env_vars (in order); `-` when there are none. */
export function formatEnvDisplay(env: Readonly<Record<string, string>> | null, envVars: readonly EnvVarSpec[]): string {
  const parts = Object.keys(env ?? {})
    .sort()
    .map((k) => `${k}=${MASK}`);
  parts.push(...envVars.map((v) => `${v.name}=${MASK}`));
  return parts.length === 0 ? '-' : parts.join(', ');
}

function formatMap(map: Readonly<Record<string, string>> | null, show: (value: string) => string): string {
  const keys = Object.keys(map ?? {}).sort();
  return keys.length === 0 ? '-' : keys.map((k) => `${k}=${show(map![k]!)}`).join(', ');
}

function status(server: McpServerConfig): string {
  return server.enabled ? 'enabled' : 'disabled';
}

/** Left-aligned columns padded to the widest cell, two spaces apart. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

export interface ListedServer {
  server: McpServerConfig;
  auth: AuthStatus;
}

/** Codex's two tables (stdio, then HTTP) separated by a blank line; ours adds an Environment column when used. */
export function renderServerTables(entries: readonly ListedServer[]): string {
  const stdio = entries.filter((e) => e.server.transport.type === 'stdio');
  const http = entries.filter((e) => e.server.transport.type !== 'stdio');
  const withEnvironment = stdio.some((e) => e.server.environment !== null);
  const blocks: string[] = [];
  if (stdio.length > 0) {
    const header = ['Name', 'Command', 'Args', 'Env', 'Cwd', ...(withEnvironment ? ['Environment'] : []), 'Status', 'Auth'];
    const rows = stdio.map(({ server, auth }) => {
      const t = server.transport as Extract<McpTransportConfig, { type: 'stdio' }>;
      return [
        server.name,
        t.command,
        t.args.length > 0 ? t.args.join(' ') : '-',
        formatEnvDisplay(t.env, t.env_vars),
        t.cwd || '-',
        ...(withEnvironment ? [server.environment ?? '-'] : []),
        status(server),
        authStatusLabel(auth),
      ];
    });
    blocks.push(formatTable(header, rows));
  }
  if (http.length > 0) {
    const rows = http.map(({ server, auth }) => {
      const t = server.transport as Extract<McpTransportConfig, { type: 'streamable_http' | 'sse' }>;
      return [server.name, t.url, t.bearer_token_env_var ?? '-', status(server), authStatusLabel(auth)];
    });
    blocks.push(formatTable(['Name', 'Url', 'Bearer Token Env Var', 'Status', 'Auth'], rows));
  }
  return blocks.join('\n');
}

/** `mcp get <name>` without --json. */
export function renderServerDetails(server: McpServerConfig, program = 'switchboard'): string {
  if (!server.enabled) return `${server.name} (disabled)\n`;
  const lines = [server.name, '  enabled: true'];
  const tools = (list: readonly string[]) => (list.length === 0 ? '[]' : list.join(', '));
  if (server.enabled_tools !== null) lines.push(`  enabled_tools: ${tools(server.enabled_tools)}`);
  if (server.disabled_tools !== null) lines.push(`  disabled_tools: ${tools(server.disabled_tools)}`);
  const t = server.transport;
  switch (t.type) {
    case 'stdio':
      lines.push('  transport: stdio', `  command: ${t.command}`, `  args: ${t.args.length > 0 ? t.args.join(' ') : '-'}`);
      lines.push(`  cwd: ${t.cwd || '-'}`, `  env: ${formatEnvDisplay(t.env, t.env_vars)}`);
      break;
    case 'streamable_http':
    case 'sse':
      lines.push(`  transport: ${t.type}`, `  url: ${t.url}`, `  bearer_token_env_var: ${t.bearer_token_env_var ?? '-'}`);
      lines.push(`  http_headers: ${formatMap(t.http_headers, () => MASK)}`, `  env_http_headers: ${formatMap(t.env_http_headers, (v) => v)}`);
      break;
    default:
      assertNever(t, 'transport');
  }
  if (server.environment !== null) lines.push(`  environment: ${server.environment}`);
  if (server.startup_timeout_sec !== null) lines.push(`  startup_timeout_sec: ${server.startup_timeout_sec}`);
  if (server.tool_timeout_sec !== null) lines.push(`  tool_timeout_sec: ${server.tool_timeout_sec}`);
  if (server.stop_after_idle_sec !== null) lines.push(`  stop_after_idle_sec: ${server.stop_after_idle_sec}`);
  lines.push(`  remove: ${program} mcp remove ${server.name}`);
  return `${lines.join('\n')}\n`;
}
