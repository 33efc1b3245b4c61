// What a configuration reload changes, server by server: which servers are new, gone, changed in how
// they are reached (a new connection and process), changed only in settings the running connection
// can take as they are, or not changed at all.
import type { McpServerConfig } from '../config/index.js';
import { stableJson } from '../util/index.js';

/**
 * Settings a running server takes without a new connection: its tool filter, whether it is required,
 * always loaded or parallel, and what its next start does. Every other key (transport, environment,
 * OAuth, scopes, tool_timeout_sec, which the client applies to every request it makes) needs a new one.
 */
export const IN_PLACE_SETTINGS = ['enabled_tools', 'disabled_tools', 'required', 'always_loaded', 'supports_parallel_tool_calls', 'startup_mode', 'startup_timeout_sec', 'stop_after_idle_sec'] as const;

/** The servers of a reload by what happens to them (names in the new config's order; `removed` in the old one's). */
export interface ServersDiff {
  added: McpServerConfig[];
  removed: string[];
  /** Reached differently now: a new connection (and process) replaces the running one. */
  restarted: McpServerConfig[];
  /** Only in-place settings changed: the connection stays. */
  updated: McpServerConfig[];
  unchanged: string[];
}

function connectionPart(config: McpServerConfig): string {
  const rest: Record<string, unknown> = { ...config };
  for (const key of IN_PLACE_SETTINGS) delete rest[key];
  return stableJson(rest);
}

/** `current`: the running servers' configs; `next`: every server of the new config (disabled ones are left out). */
export function diffServers(current: ReadonlyMap<string, McpServerConfig>, next: Readonly<Record<string, McpServerConfig>>): ServersDiff {
  const diff: ServersDiff = { added: [], removed: [], restarted: [], updated: [], unchanged: [] };
  const enabled = new Set<string>();
  for (const config of Object.values(next)) {
    if (!config.enabled) continue;
    enabled.add(config.name);
    const before = current.get(config.name);
    if (!before) diff.added.push(config);
    else if (stableJson(before) === stableJson(config)) diff.unchanged.push(config.name);
    else if (connectionPart(before) !== connectionPart(config)) diff.restarted.push(config);
    else diff.updated.push(config);
  }
  for (const name of current.keys()) if (!enabled.has(name)) diff.removed.push(name);
  return diff;
}
