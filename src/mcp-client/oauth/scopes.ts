// Which scopes a login asks for: --scopes > configured `scopes` (an explicit empty list counts) >
// the WWW-Authenticate `scope` > the server's scopes_supported > none; and when a rejected request
// is worth one retry without scopes (only when the scopes were discovered, not chosen by the user).

export type ScopeSource = 'flag' | 'config' | 'challenge' | 'discovered';

export interface ScopeChoice {
  /** Undefined: let the SDK use scopes_supported (source "discovered") or send none. */
  scopes: string[] | undefined;
  source: ScopeSource;
}

export function resolveOAuthScopes(input: { flag?: readonly string[] | null; configured?: readonly string[] | null; challenge?: string | null }): ScopeChoice {
  if (input.flag && input.flag.length > 0) return { scopes: [...input.flag], source: 'flag' };
  if (input.configured) return { scopes: [...input.configured], source: 'config' };
  const challenge = input.challenge?.split(/\s+/).filter((s) => s !== '');
  if (challenge && challenge.length > 0) return { scopes: challenge, source: 'challenge' };
  return { scopes: undefined, source: 'discovered' };
}

/** Parse `--scopes a,b` (commas or spaces). */
export function parseScopesFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value.split(/[\s,]+/).filter((s) => s !== '');
  return scopes.length > 0 ? scopes : undefined;
}

/** Codex: retry without scopes only when the provider rejected scopes we discovered ourselves. */
export function shouldRetryWithoutScopes(source: ScopeSource, requestedAny: boolean, providerError: boolean): boolean {
  return providerError && requestedAny && (source === 'challenge' || source === 'discovered');
}

/** True when every scope in `requested` (ignoring offline_access) is in `granted`. */
export function scopesCovered(requested: string | undefined, granted: string | undefined): boolean {
  const have = new Set((granted ?? '').split(/\s+/).filter(Boolean));
  return (requested ?? '')
    .split(/\s+/)
    .filter((s) => s !== '' && s !== 'offline_access')
    .every((s) => have.has(s));
}
