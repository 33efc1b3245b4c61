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
    expect(view.allows('stripe', 'create_charge')).toBe(true);
    expect(view.allows('postgres', 'run_query')).toBe(true);
    expect(view.allows('postgres', 'drop_table')).toBe(false);
    expect(view.allows('github', 'list_issues')).toBe(false);
    expect(view.allThreads).toBe(false);
  });

  it('lets deny win over allow, and rules add up', () => {
    const view = policy.viewFor(caller({ sub: 'ci-bot', groups: ['payments'] }));
    expect(view.allows('github', 'list_issues')).toBe(true);
    expect(view.allows('github', 'merge_pull_request')).toBe(false);
    expect(view.allows('stripe', 'refund')).toBe(true);
    expect(view.allThreads).toBe(true);
  });

  it('reads dotted claim paths and namespaced claim names', () => {
    expect(policy.viewFor(caller({ sub: 'x', realm_access: { roles: ['admin'] } })).allows('anything', 'at_all')).toBe(true);
    const team = policy.viewFor(caller({ sub: 'y', 'https://example.com/team': 'core' }));
    expect(team.allows('docs', 'search')).toBe(true);
    expect(team.allows('docs', 'searches')).toBe(false);
    expect(claimValue({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
    expect(claimValue({ a: [1] }, 'a.0')).toBeUndefined();
  });

  it('treats a string claim as a space-separated list for contains', () => {
    const p = new AccessPolicy([rule({ when: { claim: 'scope', contains: 'admin' }, allow: ['*'] })]);
    expect(p.viewFor(caller({ sub: 'a', scope: 'mcp admin' })).allows('x', 'y')).toBe(true);
    expect(p.viewFor(caller({ sub: 'b', scope: 'mcp administrator' })).allows('x', 'y')).toBe(false);
  });

  it('gives a caller no rule matches an empty view', () => {
    const view = policy.viewFor(caller({ sub: 'nobody' }));
    expect(view.allows('stripe', 'x')).toBe(false);
  });

  it('restricts nobody without rules, and never the static token', () => {
    expect(new AccessPolicy([]).viewFor(caller({ sub: 'a' }))).toMatchObject({ unrestricted: true, allThreads: false });
    expect(policy.viewFor(STATIC_CALLER).unrestricted).toBe(true);
    expect(policy.viewFor(undefined).unrestricted).toBe(true);
  });

  it('matches (server, name) pairs, so a server whose name starts like another is not caught by its pattern', () => {
    const p = new AccessPolicy([rule({ allow: ['stripe__*'] })]);
    const view = p.viewFor(caller({ sub: 'a' }));
    expect(view.allows('stripe', 'charge')).toBe(true);
    expect(view.allows('stripe__admin', 'refund')).toBe(false);
    expect(view.allows('stripe', 'admin__refund')).toBe(true);
    expect(view.sees('stripe')).toBe(true);
    expect(view.sees('stripe__admin')).toBe(false);
    expect(view.allowsOwn('codex')).toBe(false);
  });

  it('names the agent server\'s own tools by bare names, and everything by * alone', () => {
    const own = new AccessPolicy([rule({ allow: ['codex'] })]).viewFor(caller({ sub: 'a' }));
    expect(own.allowsOwn('codex')).toBe(true);
    expect(own.allowsOwn('codex-reply')).toBe(false);
    expect(own.allows('codex', 'x')).toBe(false);
    const all = new AccessPolicy([rule({ allow: ['*'], deny: ['secret__*'] })]).viewFor(caller({ sub: 'a' }));
    expect(all.allowsOwn('codex-reply')).toBe(true);
    expect(all.allows('docs', 'search')).toBe(true);
    expect(all.allows('secret', 'x')).toBe(false);
    expect(all.sees('secret')).toBe(false);
    expect(all.sees('docs')).toBe(true);
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
    // A subject that reads like a client is kept apart from that client.
    expect(caller({ sub: 'client:svc' }).key).toBe('https://as#sub:client:svc');
    expect(caller({ sub: 'sub:client:svc' }).key).toBe('https://as#sub:sub:client:svc');
    expect(new Set([caller({ sub: 'client:svc' }), caller({ client_id: 'svc' }), caller({ sub: 'sub:client:svc' })].map((c) => c.key)).size).toBe(3);
  });
});
