// What a running `serve` / `mcp-server` takes from config.toml only when it starts, and why. A reload
// applies everything else and names these, until a restart, on the status page and in the log.
import type { Config } from '../config/index.js';
import { stableJson } from '../util/index.js';

interface ReadAtStart {
  keys: readonly (keyof Config)[];
  why: string;
}

const READ_AT_START: readonly ReadAtStart[] = [
  { keys: ['mcp_tool_name_max_length'], why: 'every model-visible tool name depends on it: clients would see every name change at once' },
  { keys: ['environments'], why: 'the launchers of remote servers are set up at start' },
  {
    keys: ['mcp_oauth_credentials_store', 'mcp_oauth_callback_port', 'mcp_oauth_callback_url', 'mcp_oauth_client_metadata_url'],
    why: 'the OAuth token store and client registration are set up at start',
  },
  { keys: ['mcp_node_compile_cache', 'mcp_restart_initial_delay_ms', 'mcp_restart_max_delay_ms', 'mcp_stop_after_idle_sec'], why: 'read when the connection manager is built' },
  { keys: ['store'], why: 'the shared store is opened at start' },
];

/** `<key>: <why>` for each setting read at start that `next` changes from `started`. */
export function restartNeeded(started: Config, next: Config): string[] {
  const out: string[] = [];
  for (const { keys, why } of READ_AT_START) {
    for (const key of keys) if (stableJson(started[key]) !== stableJson(next[key])) out.push(`${key}: ${why}`);
  }
  return out;
}
