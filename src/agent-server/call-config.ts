// Configuration for one `codex` call: the server's config (config.toml + its -c overrides) with the
// call's `config`, `profile` and `compact-prompt` applied on top and validated again, plus the typed
// per-thread overrides (model, cwd, policies, instructions) over the server's command-line defaults
// (-m, -s, -a, --full-auto, ...), which give way to whatever the call says about the same setting.
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
  /** Session settings from the server's command line (-m, -s, -a, --oss, ...): every session's defaults. */
  defaults?: SessionDefaults;
}

/** The typed settings a server's command line may give every session (they beat config.toml and its profile). */
export type SessionDefaults = Pick<ThreadOverrides, 'model' | 'modelProvider' | 'sandboxMode' | 'approvalPolicy'>;

/** The config.toml key each typed default stands for: a call that sets that key (or a profile that does) wins. */
const DEFAULT_KEYS = { model: 'model', modelProvider: 'model_provider', sandboxMode: 'sandbox_mode', approvalPolicy: 'approval_policy' } as const;

/** From the loaded config file text, the server's -c overrides and its command-line session defaults. */
export function serverConfig(base: Config, text: string | null, overrides: readonly ConfigOverride[], defaults: SessionDefaults = {}): ServerConfig {
  const parsed = text === null ? {} : parseTomlText(text, base.file);
  return { base, raw: applyOverrides(parsed, overrides), defaults: { ...defaults } };
}

/** A TOML table (a JSON object), as the call's `config` and config.toml hold them. */
export const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a call sets a top-level config key other than by a typed argument: its `config`, its profile, or not at all. */
export function settingSource(server: ServerConfig, args: CodexArgs, key: string): { kind: 'config' } | { kind: 'profile'; name: string } | null {
  const config = args.config ?? {};
  if (Object.keys(config).some((k) => splitKeyPath(k)[0] === key)) return { kind: 'config' };
  const name = args.profile ?? (typeof config.profile === 'string' ? config.profile : undefined);
  if (name === undefined) return null;
  const table = isTable(server.raw.profiles) ? server.raw.profiles[name] : undefined;
  return isTable(table) && Object.hasOwn(table, key) ? { kind: 'profile', name } : null;
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

/**
 * The call's values also beat the profile in effect (the server's -p, config.toml's `profile`, or the
 * call's own): written into that profile's table too, for the keys it sets itself (a profile's table
 * replaces the top-level one whole).
 */
function overProfile(raw: Record<string, unknown>, overrides: readonly ConfigOverride[]): Record<string, unknown> {
  const name = raw.profile;
  const table = typeof name === 'string' && isTable(raw.profiles) ? raw.profiles[name] : undefined;
  if (!isTable(table)) return raw;
  const inProfile = overrides
    .filter((o) => o.path[0] !== 'profile' && o.path[0] !== 'profiles' && Object.hasOwn(table, o.path[0]!))
    .map((o) => ({ path: ['profiles', name as string, ...o.path], value: o.value }));
  return inProfile.length === 0 ? raw : applyOverrides(raw, inProfile);
}

/** The call's config; throws ConfigError when the overrides do not validate. */
export function callConfig(server: ServerConfig, args: CodexArgs): { config: Config; warnings: string[] } {
  const overrides = configOverrides(args);
  if (overrides.length === 0) return { config: server.base, warnings: [] };
  return buildConfig(overProfile(applyOverrides(server.raw, overrides), overrides), { home: server.base.home, file: server.base.file });
}

/**
 * Typed overrides: the call's arguments, else the server's defaults for settings the call leaves
 * alone; a relative cwd is resolved against the server's working directory.
 */
export function threadOverrides(server: ServerConfig, args: CodexArgs, serverCwd: string): ThreadOverrides {
  const out: ThreadOverrides = {};
  for (const key of Object.keys(DEFAULT_KEYS) as (keyof SessionDefaults)[]) {
    const value = server.defaults?.[key];
    if (value !== undefined && settingSource(server, args, DEFAULT_KEYS[key]) === null) Object.assign(out, { [key]: value });
  }
  if (args.model !== undefined) out.model = args.model;
  // Always set: with -C the server works elsewhere than the process (and the thread manager) started.
  out.cwd = path.resolve(serverCwd, args.cwd ?? '.');
  if (args.approvalPolicy !== undefined) out.approvalPolicy = args.approvalPolicy;
  if (args.sandbox !== undefined) out.sandboxMode = args.sandbox;
  if (args.baseInstructions !== undefined) out.baseInstructions = args.baseInstructions;
  if (args.developerInstructions !== undefined) out.developerInstructions = args.developerInstructions;
  return out;
}
