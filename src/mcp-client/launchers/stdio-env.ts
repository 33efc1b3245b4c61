// The environment of a local stdio server: an allow list rebuilt from scratch, never the parent's.
import type { EnvVarSpec } from '../../config/index.js';
import { DEFAULT_ENV_VARS } from '../defaults.js';
import { McpClientError } from '../errors.js';

/**
 * Codex's order: the default variables present in the parent, then the `env_vars` names present in
 * the parent, then the `env` literals (which override both). A secret such as OPENAI_API_KEY only
 * reaches the server when the configuration names it.
 */
export function createLocalServerEnv(
  parent: Readonly<Record<string, string | undefined>>,
  envVars: readonly EnvVarSpec[],
  literals: Readonly<Record<string, string>> | null,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of DEFAULT_ENV_VARS) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  for (const spec of envVars) {
    if (spec.source === 'remote') {
      throw new McpClientError('config', `env_vars entry \`${spec.name}\` uses source \`remote\`, which requires remote MCP stdio`);
    }
    const value = parent[spec.name];
    if (value !== undefined) env[spec.name] = value;
  }
  return { ...env, ...(literals ?? {}) };
}

/**
 * Point a Node server's module compile cache (Node 22.1+) at `dir`, so that every start after the
 * first skips most of its parsing and compiling; other programs ignore the variable. Left alone when
 * the user chose a cache or turned it off (NODE_COMPILE_CACHE / NODE_DISABLE_COMPILE_CACHE in the
 * server's env or in ours). Returns whether it was set.
 */
export function addCompileCache(env: Record<string, string>, parent: Readonly<Record<string, string | undefined>>, dir: string | undefined): boolean {
  if (dir === undefined) return false;
  for (const name of ['NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE']) {
    if (env[name] !== undefined || parent[name] !== undefined) return false;
  }
  env.NODE_COMPILE_CACHE = dir;
  return true;
}
