// Configuration for one `codex` call: the server's config (config.toml + its -c overrides) with the
// call's `config`, `profile` and `compact-prompt` applied on top and validated again, plus the typed
// per-thread overrides (model, cwd, policies, instructions).
import path from 'node:path';
import {
  applyOverrides,
  buildConfig,
  parseTomlText,
  splitKeyPath,
  type Config,
  type ConfigOverride,
} from '../config/index.js';
import type { ThreadOverrides } from '../core/index.js';
import type { CodexArgs } from './tool-args.js';

export interface ServerConfig {
  /** The server's validated config: what `codex-reply` and argument-free calls use. */
  base: Config;
  /** config.toml with the server's -c overrides applied, before any profile (calls build on it). */
  raw: Record<string, unknown>;
}

/** From the loaded config file text and the server's -c overrides. */
export function serverConfig(base: Config, text: string | null, overrides: readonly ConfigOverride[]): ServerConfig {
  const parsed = text === null ? {} : parseTomlText(text, base.file);
  return { base, raw: applyOverrides(parsed, overrides) };
}

/**
 * A JSON value from the tool's `config` object as Codex turned it into TOML: objects are tables,
 * arrays stay arrays, numbers stay numbers, and null becomes the empty string.
 */
export function jsonToToml(value: unknown): unknown {
  if (value === null) return '';
  if (Array.isArray(value)) return value.map(jsonToToml);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonToToml(v)]));
  }
  return value;
}

function configOverrides(args: CodexArgs): ConfigOverride[] {
  const out: ConfigOverride[] = Object.entries(args.config ?? {}).map(([key, value]) => ({ path: splitKeyPath(key), value: jsonToToml(value) }));
  if (args.profile !== undefined) out.push({ path: ['profile'], value: args.profile });
  if (args.compactPrompt !== undefined) out.push({ path: ['compact_prompt'], value: args.compactPrompt });
  return out;
}

/** The call's config; throws ConfigError when the overrides do not validate. */
export function callConfig(server: ServerConfig, args: CodexArgs): { config: Config; warnings: string[] } {
  const overrides = configOverrides(args);
  if (overrides.length === 0) return { config: server.base, warnings: [] };
  return buildConfig(applyOverrides(server.raw, overrides), { home: server.base.home, file: server.base.file });
}

/** Typed overrides; a relative cwd is resolved against the server process's working directory. */
export function threadOverrides(args: CodexArgs, serverCwd: string): ThreadOverrides {
  const out: ThreadOverrides = {};
  if (args.model !== undefined) out.model = args.model;
  if (args.cwd !== undefined) out.cwd = path.resolve(serverCwd, args.cwd);
  if (args.approvalPolicy !== undefined) out.approvalPolicy = args.approvalPolicy;
  if (args.sandbox !== undefined) out.sandboxMode = args.sandbox;
  if (args.baseInstructions !== undefined) out.baseInstructions = args.baseInstructions;
  if (args.developerInstructions !== undefined) out.developerInstructions = args.developerInstructions;
  return out;
}
