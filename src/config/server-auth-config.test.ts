// [server_auth] as config.toml spells it: the accepted shapes, the defaults, and the texts of the
// mistakes, each naming its key.
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { buildConfig } from './config.js';

function load(text: string) {
  return buildConfig(parse(text) as Record<string, unknown>, { home: '/h', file: '/h/config.toml' }).config.server_auth;
}

function error(text: string): string {
  try {
    load(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('[server_auth]', () => {
  it('is null when absent', () => expect(load('model = "m"\n')).toBeNull());

  it('reads the issue\'s example with its defaults', () => {
    const auth = load(`
[server_auth]
issuer = "https://login.example.com/realms/team"
audience = "https://mcp.example.com/mcp"
required_scopes = ["mcp"]
limits = { requests_per_minute = 600, concurrent_calls = 8 }

[[server_auth.rules]]
when = { claim = "groups", contains = "payments" }
allow = ["stripe__*", "postgres__run_query"]

[[server_auth.rules]]
when = { claim = "sub", equals = "ci-bot" }
allow = ["github__*"]
deny = ["github__merge_pull_request"]
threads = "all"
`);
    expect(auth).toEqual({
      issuer: 'https://login.example.com/realms/team',
      audience: 'https://mcp.example.com/mcp',
      required_scopes: ['mcp'],
      clock_skew_sec: 30,
      audit: true,
      trust_static_token: false,
      limits: { requests_per_minute: 600, concurrent_calls: 8 },
      rules: [
        { when: { claim: 'groups', contains: 'payments' }, allow: ['stripe__*', 'postgres__run_query'], deny: [], threads: 'own' },
        { when: { claim: 'sub', equals: 'ci-bot' }, allow: ['github__*'], deny: ['github__merge_pull_request'], threads: 'all' },
      ],
    });
  });

  it("reads a rule's ceilings for the agent server's callers", () => {
    const auth = load(`
[server_auth]
trust_static_token = true
[[server_auth.rules]]
when = { claim = "groups", contains = "builders" }
allow = ["codex", "codex-reply"]
sandbox = "workspace-write"
approval_policy = "never"
config_keys = ["sandbox_workspace_write.network_access", "*"]
cwd_roots = ["/srv/projects"]
`);
    expect(auth?.trust_static_token).toBe(true);
    expect(auth?.rules[0]).toMatchObject({ sandbox: 'workspace-write', approval_policy: 'never', config_keys: ['sandbox_workspace_write.network_access', '*'], cwd_roots: ['/srv/projects'] });
  });

  it('takes limits and rules alone (static token use)', () => {
    const auth = load('[server_auth.limits]\nrequests_per_minute = 5\n');
    expect(auth?.issuer).toBeUndefined();
    expect(auth).toMatchObject({ limits: { requests_per_minute: 5 }, rules: [], audit: true });
  });

  it.each([
    ['server_auth = 1\n', 'server_auth must be a table (key server_auth)'],
    ['[server_auth]\nissuer = "http://login.example.com"\naudience = "a"\n', 'issuer must be an https:// URL without query or fragment (http:// only on localhost or 127.0.0.1) (key server_auth.issuer)'],
    ['[server_auth]\nissuer = "https://login.example.com"\n', 'audience is required with issuer: the resource your tokens are issued for, e.g. "https://mcp.example.com/mcp" (key server_auth.audience)'],
    ['[server_auth]\naudience = "x"\n', 'issuer is required with audience: the authorization server, e.g. "https://login.example.com/realms/team" (key server_auth.issuer)'],
    ['[server_auth]\nrequired_scopes = "mcp"\n', 'required_scopes must be an array of strings (key server_auth.required_scopes)'],
    ['[server_auth]\nlimits = { requests_per_minute = 0 }\n', 'limits.requests_per_minute must be a whole number between 1 and 1000000 (key server_auth.limits)'],
    ['[server_auth]\nlimits = { per_hour = 3 }\n', 'limits takes only requests_per_minute and concurrent_calls (key server_auth.limits)'],
    ['[[server_auth.rules]]\nallow = "x"\n', 'allow and deny must be arrays of "server__tool" patterns (* and ? as wildcards) (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\nwhen = { claim = "groups" }\n', 'when needs exactly one of contains or equals (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\nallow = ["a"]\n[[server_auth.rules]]\nwhen = { claim = "g", contains = "x", equals = "y" }\n', 'when needs exactly one of contains or equals (key server_auth.rules.1)'],
    ['[[server_auth.rules]]\nwhen = { claim = "g", has = "x" }\n', 'when takes only claim and one of contains or equals (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\nallow = ["a"]\nthreads = "mine"\n', 'threads must be "own" or "all" (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\nallow = ["a"]\npermit = ["b"]\n', 'a rule takes only when, allow, deny, threads, sandbox, approval_policy, config_keys and cwd_roots (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\nsandbox = "none"\n', 'sandbox must be one of "read-only", "workspace-write", "danger-full-access" (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\napproval_policy = "sometimes"\n', 'approval_policy must be one of "untrusted", "on-failure", "on-request", "never" (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\nconfig_keys = "model"\n', 'config_keys must be an array of dotted config keys such as "model_reasoning_effort", or "*" for any key (key server_auth.rules.0)'],
    ['[[server_auth.rules]]\ncwd_roots = ["projects"]\n', 'cwd_roots must be an array of absolute directory paths such as "/srv/projects" (key server_auth.rules.0)'],
    ['[server_auth]\ntrust_static_token = "yes"\n', 'trust_static_token must be true or false (key server_auth.trust_static_token)'],
  ])('%j', (text, message) => expect(error(text)).toBe(message));

  it('refuses a server name holding "__" once rules exist (the pattern would be ambiguous), and allows it without rules', () => {
    const servers = '[mcp_servers.stripe]\ncommand = "s"\n[mcp_servers.stripe__admin]\ncommand = "a"\n';
    expect(error(`${servers}[[server_auth.rules]]\nallow = ["stripe__*"]\n`)).toBe(
      `MCP server name 'stripe__admin' contains "__", which [server_auth] rules use to separate a server from a tool ("stripe__admin__*" would read as server 'stripe'); rename the server (e.g. 'stripe_admin') (key mcp_servers.stripe__admin)`,
    );
    expect(load(`${servers}[server_auth]\nlimits = { requests_per_minute = 5 }\n`)?.rules).toEqual([]);
  });
});
