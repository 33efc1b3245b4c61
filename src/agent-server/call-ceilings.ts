// What a caller over HTTP may change with its `codex` arguments (issue 30): the loosest sandbox and
// approval policy, the `config` keys and the working directories. The operator raises or lowers them
// per [server_auth] rule; by default they are the server's own settings and a short list of harmless
// keys. stdio and a trusted static token have none: there the caller is the operator.
import path from 'node:path';
import type { ServerAuthSettings } from '../config/index.js';
import { resolveThreadSettings } from '../core/index.js';
import { ruleApplies, type Caller } from '../mcp-host/index.js';
import type { AskForApproval, SandboxMode } from '../protocol/index.js';
import type { ServerConfig } from './call-config.js';

/** From the strictest to the loosest. */
export const SANDBOX_ORDER: readonly SandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access'];
/** From the strictest (asks before anything not known to be safe) to the loosest (never asks). */
export const APPROVAL_ORDER: readonly AskForApproval[] = ['untrusted', 'on-failure', 'on-request', 'never'];

/**
 * `config` keys any caller may set: the model (within the configured provider), how it reasons and
 * talks, and instructions. Nothing here names a program, a URL, a secret or a permission.
 */
export const HARMLESS_CONFIG_KEYS: readonly string[] = [
  'model',
  'model_reasoning_effort',
  'model_reasoning_summary',
  'model_verbosity',
  'model_context_window',
  'model_auto_compact_token_limit',
  'tool_search',
  'base_instructions',
  'developer_instructions',
  'compact_prompt',
  'hide_agent_reasoning',
  'show_raw_agent_reasoning',
  'profile',
];

/** What one caller's calls may reach. */
export interface Ceiling {
  sandbox: SandboxMode;
  approvalPolicy: AskForApproval;
  /** Dotted key prefixes a call's `config` may set (`*`: any). */
  configKeys: readonly string[];
  /** Absolute directories a session's working directory must lie in. */
  cwdRoots: readonly string[];
}

type CeilingRule = ServerAuthSettings['rules'][number];

const looser = <T>(order: readonly T[], a: T, b: T): T => (order.indexOf(a) >= order.indexOf(b) ? a : b);

/** The ceilings of every caller of one HTTP server. */
export class CallCeilings {
  private readonly byCaller = new WeakMap<Caller, Ceiling>();
  private readonly own: Ceiling;

  constructor(
    private readonly rules: readonly CeilingRule[],
    own: { sandbox: SandboxMode; approvalPolicy: AskForApproval; cwd: string },
    private readonly trustStaticToken: boolean,
  ) {
    this.own = Object.freeze({ sandbox: own.sandbox, approvalPolicy: own.approvalPolicy, configKeys: HARMLESS_CONFIG_KEYS, cwdRoots: [own.cwd] });
  }

  /** The caller's ceiling; null when nothing limits it (the static token, when trusted). */
  for(caller: Caller | undefined): Ceiling | null {
    // No caller: the static token without [server_auth], or --insecure-no-auth (any local process).
    if (!caller || caller.kind === 'static') return this.trustStaticToken ? null : this.own;
    let ceiling = this.byCaller.get(caller);
    if (!ceiling) {
      ceiling = this.evaluate(caller);
      this.byCaller.set(caller, ceiling);
    }
    return ceiling;
  }

  /** Matching rules add up as their `allow` lists do: the loosest value any of them sets, else the server's own. */
  private evaluate(caller: Caller): Ceiling {
    const matching = this.rules.filter((r) => ruleApplies(r, caller));
    const pick = <T>(order: readonly T[], values: (T | undefined)[], fallback: T): T => {
      const set = values.filter((v): v is T => v !== undefined);
      return set.length === 0 ? fallback : set.reduce((a, b) => looser(order, a, b));
    };
    const roots = matching.flatMap((r) => r.cwd_roots ?? []);
    return Object.freeze({
      sandbox: pick(SANDBOX_ORDER, matching.map((r) => r.sandbox), this.own.sandbox),
      approvalPolicy: pick(APPROVAL_ORDER, matching.map((r) => r.approval_policy), this.own.approvalPolicy),
      configKeys: [...HARMLESS_CONFIG_KEYS, ...matching.flatMap((r) => r.config_keys ?? [])],
      cwdRoots: matching.some((r) => r.cwd_roots !== undefined) ? roots.map((r) => path.resolve(r)) : this.own.cwdRoots,
    });
  }
}

/** The ceilings for an HTTP server, from [server_auth] (absent: the defaults for every caller). */
export function callCeilings(auth: ServerAuthSettings | null, server: ServerConfig, cwd: string): CallCeilings {
  // The server's own settings: what an argument-free call gets (config.toml, its profile, the command line).
  const own = resolveThreadSettings(server.base, server.defaults ?? {}, cwd);
  return new CallCeilings(auth?.rules ?? [], { sandbox: own.sandboxPolicy.type, approvalPolicy: own.approvalPolicy, cwd: own.cwd }, auth?.trust_static_token ?? false);
}
