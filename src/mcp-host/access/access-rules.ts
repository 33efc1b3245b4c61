// The rule language of [server_auth]: which rules a caller's claims match, and the view that gives
// it: `server__name` glob patterns (allowed unless denied), and whose threads it may continue.
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
  /** `name` as a pattern sees it: `<server>__<tool>` (or prompt, resource URI); the agent's own tools by name. */
  allows(name: string): boolean;
  readonly allThreads: boolean;
}

export const UNRESTRICTED: CallerView = Object.freeze({ unrestricted: true, allows: () => true, allThreads: true });
/** A token caller when no rules are configured: every tool, but only its own threads. */
const EVERY_TOOL_OWN_THREADS: CallerView = Object.freeze({ unrestricted: true, allows: () => true, allThreads: false });

/** `<server>__<name>`, the string patterns are matched against. */
export function qualified(server: string, name: string): string {
  return `${server}__${name}`;
}

interface Compiled {
  rule: AccessRule;
  allow: RegExp[];
  deny: RegExp[];
}

export class AccessPolicy {
  private readonly rules: Compiled[];
  // Callers are frozen objects kept with their cached token: one evaluation per token.
  private readonly views = new WeakMap<Caller, CallerView>();

  constructor(rules: readonly AccessRule[]) {
    this.rules = rules.map((rule) => ({ rule, allow: rule.allow.map(globToRegExp), deny: rule.deny.map(globToRegExp) }));
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
    const matching = this.rules.filter((r) => r.rule.when === undefined || matches(caller.claims, r.rule.when));
    const allow = matching.flatMap((r) => r.allow);
    const deny = matching.flatMap((r) => r.deny);
    const allThreads = matching.some((r) => r.rule.threads === 'all');
    return Object.freeze({
      unrestricted: false,
      allThreads,
      allows: (name: string) => allow.some((re) => re.test(name)) && !deny.some((re) => re.test(name)),
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
