// The rule language: claim conditions (arrays, scope strings, dotted paths, namespaced names),
// glob patterns, allow/deny across several matching rules, and who is never restricted.
import { describe, expect, it } from 'vitest';
import { AccessPolicy, claimValue, globToRegExp, type AccessRule } from './access-rules.js';
import { callerFromClaims, STATIC_CALLER } from './caller.js';

const rule = (r: Partial<AccessRule>): AccessRule => ({ allow: [], deny: [], threads: 'own', ...r });
const caller = (claims: Record<string, unknown>) => callerFromClaims('https://as', claims);

describe('access rules', () => {
  const policy = new AccessPolicy([
    rule({ when: { claim: 'groups', contains: 'payments' }, allow: ['stripe__*', 'postgres__run_query'] }),
    rule({ when: { claim: 'sub', equals: 'ci-bot' }, allow: ['github__*'], deny: ['github__merge_pull_request'], threads: 'all' }),
    rule({ when: { claim: 'realm_access.roles', contains: 'admin' }, allow: ['*'] }),
    rule({ when: { claim: 'https://example.com/team', equals: 'core' }, allow: ['docs__sea?ch'] }),
  ]);

  it('allows what a matching rule allows, and nothing else', () => {
    const view = policy.viewFor(caller({ sub: 'alice', groups: ['payments', 'eng'] }));
    expect(view.unrestricted).toBe(false);
    expect(view.allows('stripe__create_charge')).toBe(true);
    expect(view.allows('postgres__run_query')).toBe(true);
    expect(view.allows('postgres__drop_table')).toBe(false);
    expect(view.allows('github__list_issues')).toBe(false);
    expect(view.allThreads).toBe(false);
  });

  it('lets deny win over allow, and rules add up', () => {
    const view = policy.viewFor(caller({ sub: 'ci-bot', groups: ['payments'] }));
    expect(view.allows('github__list_issues')).toBe(true);
    expect(view.allows('github__merge_pull_request')).toBe(false);
    expect(view.allows('stripe__refund')).toBe(true);
    expect(view.allThreads).toBe(true);
  });

  it('reads dotted claim paths and namespaced claim names', () => {
    expect(policy.viewFor(caller({ sub: 'x', realm_access: { roles: ['admin'] } })).allows('anything__at_all')).toBe(true);
    const team = policy.viewFor(caller({ sub: 'y', 'https://example.com/team': 'core' }));
    expect(team.allows('docs__search')).toBe(true);
    expect(team.allows('docs__searches')).toBe(false);
    expect(claimValue({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
    expect(claimValue({ a: [1] }, 'a.0')).toBeUndefined();
  });

  it('treats a string claim as a space-separated list for contains', () => {
    const p = new AccessPolicy([rule({ when: { claim: 'scope', contains: 'admin' }, allow: ['*'] })]);
    expect(p.viewFor(caller({ sub: 'a', scope: 'mcp admin' })).allows('x__y')).toBe(true);
    expect(p.viewFor(caller({ sub: 'b', scope: 'mcp administrator' })).allows('x__y')).toBe(false);
  });

  it('gives a caller no rule matches an empty view', () => {
    const view = policy.viewFor(caller({ sub: 'nobody' }));
    expect(view.allows('stripe__x')).toBe(false);
  });

  it('restricts nobody without rules, and never the static token', () => {
    expect(new AccessPolicy([]).viewFor(caller({ sub: 'a' }))).toMatchObject({ unrestricted: true, allThreads: false });
    expect(policy.viewFor(STATIC_CALLER).unrestricted).toBe(true);
    expect(policy.viewFor(undefined).unrestricted).toBe(true);
  });

  it('matches globs literally apart from * and ?', () => {
    expect(globToRegExp('a.b__*').test('a.b__x')).toBe(true);
    expect(globToRegExp('a.b__*').test('aXb__x')).toBe(false);
    expect(globToRegExp('s__(x)+').test('s__(x)+')).toBe(true);
    expect(globToRegExp('s__?').test('s__ab')).toBe(false);
  });

  it('reads subject, client id and scopes from the usual claims', () => {
    expect(caller({ sub: 'u', azp: 'app', scope: 'a b' })).toMatchObject({ key: 'https://as#u', subject: 'u', clientId: 'app', scopes: ['a', 'b'] });
    expect(caller({ sub: 'u', appid: 'entra-app', scp: 'mcp.read' })).toMatchObject({ clientId: 'entra-app', scopes: ['mcp.read'] });
    expect(caller({ client_id: 'svc', scp: ['x', 'y'] })).toMatchObject({ key: 'https://as#client:svc', subject: null, scopes: ['x', 'y'] });
  });
});
