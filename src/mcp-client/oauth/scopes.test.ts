import { describe, expect, it } from 'vitest';
import { parseScopesFlag, resolveOAuthScopes, scopesCovered, shouldRetryWithoutScopes } from './scopes.js';

describe('resolveOAuthScopes', () => {
  it('prefers the flag, then config (an explicit empty list counts), then the challenge, then discovery', () => {
    expect(resolveOAuthScopes({ flag: ['a'], configured: ['b'], challenge: 'c' })).toEqual({ scopes: ['a'], source: 'flag' });
    expect(resolveOAuthScopes({ configured: ['b'], challenge: 'c' })).toEqual({ scopes: ['b'], source: 'config' });
    expect(resolveOAuthScopes({ configured: [], challenge: 'c' })).toEqual({ scopes: [], source: 'config' });
    expect(resolveOAuthScopes({ configured: null, challenge: 'c d' })).toEqual({ scopes: ['c', 'd'], source: 'challenge' });
    expect(resolveOAuthScopes({})).toEqual({ scopes: undefined, source: 'discovered' });
  });

  it('retries without scopes only for provider errors on discovered scopes', () => {
    expect(shouldRetryWithoutScopes('discovered', true, true)).toBe(true);
    expect(shouldRetryWithoutScopes('challenge', true, true)).toBe(true);
    expect(shouldRetryWithoutScopes('flag', true, true)).toBe(false);
    expect(shouldRetryWithoutScopes('config', true, true)).toBe(false);
    expect(shouldRetryWithoutScopes('discovered', false, true)).toBe(false);
    expect(shouldRetryWithoutScopes('discovered', true, false)).toBe(false);
  });

  it('parses --scopes and compares granted scopes', () => {
    expect(parseScopesFlag('a,b c')).toEqual(['a', 'b', 'c']);
    expect(parseScopesFlag(' , ')).toBeUndefined();
    expect(scopesCovered('a b offline_access', 'b a')).toBe(true);
    expect(scopesCovered('a b', 'a')).toBe(false);
  });
});
