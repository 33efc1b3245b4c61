// Holding a call to its caller's ceiling (call-ceilings.ts): the `config` keys it names, then the
// settings its session would really run with (after profile, config and typed arguments, so a looser
// operator profile is caught too), the thread a `codex-reply` continues, and the approvals that would
// take a command out of the sandbox.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { splitKeyPath, type Config } from '../config/index.js';
import { resolveThreadSettings, type ThreadOverrides, type ThreadSettings } from '../core/index.js';
import type { EventMsg } from '../protocol/index.js';
import { errorMessage } from '../util/index.js';
import { APPROVAL_ORDER, SANDBOX_ORDER, type Ceiling } from './call-ceilings.js';
import { isTable, settingSource, type ServerConfig } from './call-config.js';
import type { CodexArgs } from './tool-args.js';
import * as T from './texts.js';

export type Checked = { ok: true; overrides: ThreadOverrides } | { ok: false; message: string };

const allows = (patterns: readonly string[], keyPath: readonly string[]) =>
  patterns.some((p) => p === '*' || isPrefix(p.split('.'), keyPath));
const isPrefix = (prefix: readonly string[], keyPath: readonly string[]) => prefix.length <= keyPath.length && prefix.every((p, i) => p === keyPath[i]);
const opensInto = (patterns: readonly string[], keyPath: readonly string[]) => patterns.some((p) => isPrefix(keyPath, p.split('.')));

/** The first `config` key (as a dotted path) the ceiling does not open; null when all are open. */
export function refusedConfigKey(config: Record<string, unknown>, patterns: readonly string[]): string | null {
  const walk = (table: Record<string, unknown>, prefix: readonly string[], split: (k: string) => string[]): string | null => {
    for (const [key, value] of Object.entries(table)) {
      let keyPath: string[];
      try {
        keyPath = [...prefix, ...split(key)];
      } catch {
        keyPath = [...prefix, key]; // not a valid dotted key: refused by its text, never applied
      }
      if (allows(patterns, keyPath)) continue;
      // `{ sandbox_workspace_write = { network_access = true } }` is judged key by key inside.
      if (isTable(value) && opensInto(patterns, keyPath)) {
        const inner = walk(value, keyPath, (k) => [k]);
        if (inner !== null) return inner;
        continue;
      }
      return keyPath.join('.');
    }
    return null;
  };
  return walk(config, [], splitKeyPath);
}

const rank = <T>(order: readonly T[], value: T) => order.indexOf(value);

/** Which argument brought a setting: a typed argument, the call's config, its profile, or the server's default. */
function origin(server: ServerConfig, args: CodexArgs, typed: string, given: unknown, key: string): string | null {
  if (given !== undefined) return `\`${typed}\``;
  const source = settingSource(server, args, key);
  if (source?.kind === 'config') return `config key \`${key}\``;
  if (source?.kind === 'profile') return `profile \`${source.name}\``;
  return null;
}

export interface CallPlan {
  server: ServerConfig;
  args: CodexArgs;
  config: Config;
  overrides: ThreadOverrides;
  serverCwd: string;
}

/**
 * The session a `codex` call would start, held to the ceiling. A setting the caller asked for beyond
 * it is refused, naming the argument; the server's own default beyond it (a rule may set a lower
 * ceiling than the server runs with) is lowered to the ceiling.
 */
export async function checkCodexCall(ceiling: Ceiling, plan: CallPlan): Promise<Checked> {
  const { server, args } = plan;
  const overrides = { ...plan.overrides };
  let settings: ThreadSettings;
  try {
    settings = resolveThreadSettings(plan.config, overrides, plan.serverCwd);
  } catch (err) {
    return { ok: false, message: T.sessionStartFailed(errorMessage(err)) };
  }
  if (rank(SANDBOX_ORDER, settings.sandboxPolicy.type) > rank(SANDBOX_ORDER, ceiling.sandbox)) {
    const from = origin(server, args, 'sandbox', args.sandbox, 'sandbox_mode');
    if (from !== null) return { ok: false, message: T.sandboxRefused(settings.sandboxPolicy.type, from, ceiling.sandbox) };
    overrides.sandboxMode = ceiling.sandbox;
  }
  if (rank(APPROVAL_ORDER, settings.approvalPolicy) > rank(APPROVAL_ORDER, ceiling.approvalPolicy)) {
    const from = origin(server, args, 'approval-policy', args.approvalPolicy, 'approval_policy');
    if (from !== null) return { ok: false, message: T.approvalRefused(settings.approvalPolicy, from, ceiling.approvalPolicy) };
    overrides.approvalPolicy = ceiling.approvalPolicy;
  }
  const outside = await outsideRoots(settings.cwd, ceiling.cwdRoots);
  if (outside) return { ok: false, message: T.cwdRefused(settings.cwd, args.cwd !== undefined ? '`cwd`' : "the server's working directory", ceiling.cwdRoots) };
  return { ok: true, overrides };
}

/**
 * A thread `codex-reply` would continue, held to the replier's sandbox and approval ceilings (it may
 * be another caller's, with `threads = "all"`). Its working directory was checked when it started, on
 * whichever replica: replicas may run from different directories.
 */
export function checkThread(ceiling: Ceiling, settings: ThreadSettings): string | null {
  if (rank(SANDBOX_ORDER, settings.sandboxPolicy.type) > rank(SANDBOX_ORDER, ceiling.sandbox)) {
    return T.threadRefused(`sandbox \`${settings.sandboxPolicy.type}\``, `\`${ceiling.sandbox}\``);
  }
  if (rank(APPROVAL_ORDER, settings.approvalPolicy) > rank(APPROVAL_ORDER, ceiling.approvalPolicy)) {
    return T.threadRefused(`approval policy \`${settings.approvalPolicy}\``, `\`${ceiling.approvalPolicy}\``);
  }
  return null;
}

const within = (dir: string, root: string) => {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * True when `dir` lies outside every root: by its spelling first (nothing is looked up on disk for a
 * path outside), then with symbolic links resolved, so a link inside a root cannot point out of it.
 * A directory that does not exist is left to the call's own "not a directory" answer.
 */
async function outsideRoots(dir: string, roots: readonly string[]): Promise<boolean> {
  if (!roots.some((root) => within(dir, root))) return true;
  const real = await realpath(dir).catch(() => null);
  if (real === null) return false;
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
  return !realRoots.some((root) => within(real, root));
}

/**
 * An approval the caller would answer for itself, whose approval runs the command (or writes the
 * patch) outside the sandbox: only a caller whose ceiling is `danger-full-access` may be asked. A
 * patch inside the writable roots carries no grant root (core's patch policy) and stays askable.
 */
export function approvalLeavesCeiling(ceiling: Ceiling | null, msg: EventMsg): boolean {
  if (!ceiling || ceiling.sandbox === 'danger-full-access') return false;
  if (msg.type === 'exec_approval_request') return true;
  return msg.type === 'apply_patch_approval_request' && typeof msg.grant_root === 'string';
}
