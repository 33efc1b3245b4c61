// A caller's ceiling from the rules that match it, and which `config` keys it opens.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../mcp-host/index.js';
import { STATIC_CALLER } from '../mcp-host/access/index.js';
import { CallCeilings, HARMLESS_CONFIG_KEYS } from './call-ceilings.js';
import { refusedConfigKey } from './ceiling-check.js';

const caller = (claims: Record<string, unknown>): Caller => Object.freeze({ key: `iss#${String(claims.sub)}`, kind: 'token', subject: String(claims.sub), clientId: null, scopes: [], claims });
const OWN = { sandbox: 'workspace-write', approvalPolicy: 'on-request', cwd: '/srv/work' } as const;
const rule = (group: string, extra: Record<string, unknown>) => ({ when: { claim: 'groups', contains: group }, allow: ['codex'], deny: [], threads: 'own' as const, ...extra });

describe('CallCeilings', () => {
  const ceilings = new CallCeilings(
    [
      rule('a', { sandbox: 'read-only', config_keys: ['features'] }),
      rule('b', { sandbox: 'danger-full-access', approval_policy: 'untrusted', cwd_roots: ['/srv/b/'] }),
      rule('c', { cwd_roots: ['/srv/c'] }),
    ],
    OWN,
    false,
  );

  it("gives a caller no rule sets anything for the server's own settings and the harmless keys", () => {
    expect(ceilings.for(caller({ sub: 'x', groups: ['none'] }))).toEqual({ sandbox: 'workspace-write', approvalPolicy: 'on-request', configKeys: HARMLESS_CONFIG_KEYS, cwdRoots: ['/srv/work'] });
  });

  it('lets a rule lower or raise each value; several matching rules give the loosest, and add keys and roots up', () => {
    expect(ceilings.for(caller({ sub: 'a', groups: ['a'] }))).toMatchObject({ sandbox: 'read-only', approvalPolicy: 'on-request', configKeys: [...HARMLESS_CONFIG_KEYS, 'features'] });
    expect(ceilings.for(caller({ sub: 'ab', groups: ['a', 'b', 'c'] }))).toMatchObject({ sandbox: 'danger-full-access', approvalPolicy: 'untrusted', cwdRoots: ['/srv/b', '/srv/c'] });
  });

  it('holds the static token (and no caller at all) to the defaults unless it is trusted', () => {
    expect(ceilings.for(STATIC_CALLER)).toMatchObject({ sandbox: 'workspace-write', cwdRoots: ['/srv/work'] });
    expect(ceilings.for(undefined)).toMatchObject({ sandbox: 'workspace-write' });
    const trusting = new CallCeilings([], OWN, true);
    expect(trusting.for(STATIC_CALLER)).toBeNull();
    expect(trusting.for(undefined)).toBeNull();
    expect(trusting.for(caller({ sub: 'x' }))).not.toBeNull();
  });
});

describe('refusedConfigKey', () => {
  it.each([
    [{ model: 'x', model_reasoning_effort: 'high', 'model_verbosity': 'low' }, HARMLESS_CONFIG_KEYS, null],
    [{ model_provider: 'evil', model: 'x' }, HARMLESS_CONFIG_KEYS, 'model_provider'],
    [{ 'model_providers.evil': { base_url: 'http://x' } }, HARMLESS_CONFIG_KEYS, 'model_providers.evil'],
    [{ '"model_providers"."evil"': {} }, HARMLESS_CONFIG_KEYS, 'model_providers.evil'],
    [{ sandbox_workspace_write: { network_access: true } }, ['sandbox_workspace_write.network_access'], null],
    [{ sandbox_workspace_write: { network_access: true, writable_roots: ['/'] } }, ['sandbox_workspace_write.network_access'], 'sandbox_workspace_write.writable_roots'],
    [{ 'sandbox_workspace_write.network_access': true }, ['sandbox_workspace_write'], null],
    [{ 'a..b': 1 }, HARMLESS_CONFIG_KEYS, 'a..b'],
    [{ anything: { at: 'all' } }, ['*'], null],
  ])('%j under %j: %s', (config, patterns, expected) => expect(refusedConfigKey(config, patterns)).toBe(expected));
});
