// The rule language of [server_auth]: which rules a caller's claims match, and the view that gives
// it: `server__name` glob patterns matched on (server, name) pairs (allowed unless denied), and
// whose threads it may continue.
import type { Caller } from './caller.js';

export interface AccessRule {
  /** Absent: the rule applies to every caller. */
  when?: { claim: string; contains?: string | number | boolean; equals?: string | number | boolean };
  allow: readonly string[];
  deny: readonly string[];
  /** `all`: the caller may continue any caller's agent threads, not only its own. */
  threads: 'own' | 'all';
}

/** What one caller may see and use. */
export interface CallerView {
  /** No rule restricts it (no rules configured, the static token, stdio). */
  readonly unrestricted: boolean;
  /** An item of the upstream `server`: a tool or prompt by its raw name, a resource by its URI. */
  allows(server: string, name: string): boolean;
  /** Whether anything of `server` is in view (its instructions, status lines and log messages). */
  sees(server: string): boolean;
  /** The agent server's own tools (`codex`, `codex-reply`), by name. */
  allowsOwn(name: string): boolean;
  readonly allThreads: boolean;
}

const yes = () => true;
export const UNRESTRICTED: CallerView = Object.freeze({ unrestricted: true, allows: yes, sees: yes, allowsOwn: yes, allThreads: true });
/** A token caller when no rules are configured: every tool, but only its own threads. */
const EVERY_TOOL_OWN_THREADS: CallerView = Object.freeze({ unrestricted: true, allows: yes, sees: yes, allowsOwn: yes, allThreads: false });

/**
 * One pattern, split at its first `__` into a server part and a name part, each matched on its own:
 * `stripe__*` names every item of the server `stripe` and none of `stripe__admin` (a server name
 * holds no `__` where rules exist: config refuses it). Without `__` it names the agent server's own
 * tools; `*` alone names everything.
 */
interface Pattern {
  server: RegExp | null;
  name: RegExp;
  /** The whole server: `<server>__*`. */
  wholeServer: boolean;
  /** `*`: every item of every server, and the agent's own tools. */
  everything: boolean;
}

export function compilePattern(text: string): Pattern {
  if (text === '*') return { server: /^/, name: /^/, wholeServer: true, everything: true };
  const split = text.indexOf('__');
  if (split < 0) return { server: null, name: globToRegExp(text), wholeServer: false, everything: false };
  const rest = text.slice(split + 2);
  return { server: globToRegExp(text.slice(0, split)), name: globToRegExp(rest), wholeServer: rest === '*', everything: false };
}

function onServer(p: Pattern, server: string, name: string): boolean {
  return p.server !== null && p.server.test(server) && p.name.test(name);
}

function ownTool(p: Pattern, name: string): boolean {
  return p.everything || (p.server === null && p.name.test(name));
}

interface Compiled {
  rule: AccessRule;
  allow: Pattern[];
  deny: Pattern[];
}

export class AccessPolicy {
  private rules: Compiled[] = [];
  // Callers are frozen objects kept with their cached token: one evaluation per token (and rule set).
  private views = new WeakMap<Caller, CallerView>();

  constructor(rules: readonly AccessRule[]) {
    this.replaceRules(rules);
  }

  /** Other rules (a configuration reload): every caller's next request, in a session already open too, is judged by them. */
  replaceRules(rules: readonly AccessRule[]): void {
    this.rules = rules.map((rule) => ({ rule, allow: rule.allow.map(compilePattern), deny: rule.deny.map(compilePattern) }));
    this.views = new WeakMap();
  }

  get restricts(): boolean {
    return this.rules.length > 0;
  }

  viewFor(caller: Caller | undefined): CallerView {
    if (!caller || caller.kind === 'static') return UNRESTRICTED;
    if (this.rules.length === 0) return EVERY_TOOL_OWN_THREADS;
    let view = this.views.get(caller);
    if (!view) {
      view = this.evaluate(caller);
      this.views.set(caller, view);
    }
    return view;
  }

  private evaluate(caller: Caller): CallerView {
    const matching = this.rules.filter((r) => ruleApplies(r.rule, caller));
    const allow = matching.flatMap((r) => r.allow);
    const deny = matching.flatMap((r) => r.deny);
    const allThreads = matching.some((r) => r.rule.threads === 'all');
    return Object.freeze({
      unrestricted: false,
      allThreads,
      allows: (server: string, name: string) => allow.some((p) => onServer(p, server, name)) && !deny.some((p) => onServer(p, server, name)),
      // Some pattern may name an item of it, and no deny takes the whole server.
      sees: (server: string) => allow.some((p) => p.server?.test(server) === true) && !deny.some((p) => p.wholeServer && p.server?.test(server) === true),
      allowsOwn: (name: string) => allow.some((p) => ownTool(p, name)) && !deny.some((p) => ownTool(p, name)),
    });
  }
}

/** A claim by exact name first (Auth0's namespaced `https://…` claims hold dots), else by dotted path (`realm_access.roles`). */
export function claimValue(claims: Readonly<Record<string, unknown>>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Whether a rule applies to a token caller: no `when`, or its claims match it. */
export function ruleApplies(rule: Pick<AccessRule, 'when'>, caller: Caller): boolean {
  return rule.when === undefined || matches(caller.claims, rule.when);
}

function matches(claims: Readonly<Record<string, unknown>>, when: NonNullable<AccessRule['when']>): boolean {
  const value = claimValue(claims, when.claim);
  if (when.equals !== undefined) return value === when.equals;
  // An array holds the value; a string is a space-separated list (scope-like claims).
  if (Array.isArray(value)) return value.includes(when.contains);
  if (typeof value === 'string' && typeof when.contains === 'string') return value.split(' ').includes(when.contains);
  return false;
}

/** `*` any run of characters, `?` one; everything else literal; the whole name must match. */
export function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 's');
}
