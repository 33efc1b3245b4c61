import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parseMcpServerConfig, type McpServerConfig } from '../config/index.js';
import { authStatusLabel, resolveAuthStatus, type OAuthStatus } from './auth-status.js';

function server(body: string): McpServerConfig {
  return parseMcpServerConfig('s', parseToml(body)).config;
}

describe('resolveAuthStatus', () => {
  const oauth = (status: OAuthStatus) => ({
    calls: [] as string[],
    async oauthStatus(s: McpServerConfig) {
      this.calls.push(s.name);
      return status;
    },
  });

  it('stdio and disabled servers are unsupported, without asking the OAuth layer', async () => {
    const dep = oauth('oauth');
    const deps = { oauthStatus: dep.oauthStatus.bind(dep) };
    expect(await resolveAuthStatus(server('command = "x"'), deps)).toBe('unsupported');
    expect(await resolveAuthStatus(server('url = "http://h/mcp"\nenabled = false'), deps)).toBe('unsupported');
    expect(await resolveAuthStatus(server('url = "http://h/mcp"\nenabled = false\nbearer_token_env_var = "T"'), deps)).toBe('unsupported');
    expect(dep.calls).toEqual([]);
  });

  it.each([
    'bearer_token_env_var = "TOKEN"',
    'http_headers = { Authorization = "Bearer x" }',
    'http_headers = { authorization = "Bearer x" }',
    'env_http_headers = { AUTHORIZATION = "TOKEN_VAR" }',
    'transport = "sse"\nbearer_token_env_var = "TOKEN"',
  ])('HTTP server with %s is bearer_token', async (line) => {
    const dep = oauth('oauth');
    expect(await resolveAuthStatus(server(`url = "http://h/mcp"\n${line}`), { oauthStatus: dep.oauthStatus.bind(dep) })).toBe('bearer_token');
    expect(dep.calls).toEqual([]);
  });

  it('other HTTP servers: unsupported without an OAuth dependency, else what it says', async () => {
    const s = server('url = "http://h/mcp"\nhttp_headers = { X-Other = "1" }');
    expect(await resolveAuthStatus(s)).toBe('unsupported');
    for (const status of ['oauth', 'not_logged_in', 'unsupported'] as const) {
      const dep = oauth(status);
      expect(await resolveAuthStatus(s, { oauthStatus: dep.oauthStatus.bind(dep) })).toBe(status);
      expect(dep.calls).toEqual(['s']);
    }
  });

  it('a failing OAuth check reads as unsupported (as a failed discovery does in Codex)', async () => {
    const s = server('url = "http://h/mcp"');
    expect(await resolveAuthStatus(s, { oauthStatus: () => Promise.reject(new Error('connect ECONNREFUSED')) })).toBe('unsupported');
  });

  it('passes the signal through', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    await resolveAuthStatus(server('url = "http://h/mcp"'), {
      oauthStatus: async (_s, { signal }) => {
        seen = signal;
        return 'not_logged_in';
      },
    }, { signal: controller.signal });
    expect(seen).toBe(controller.signal);
  });

  it('labels statuses as Codex does', () => {
    expect(['unsupported', 'not_logged_in', 'bearer_token', 'oauth'].map((s) => authStatusLabel(s as never))).toEqual([
      'Unsupported',
      'Not logged in',
      'Bearer token',
      'OAuth',
    ]);
  });
});
