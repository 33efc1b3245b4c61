import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { parseMcpServerConfig, startupTimeoutMs, stopAfterIdleMs, toolTimeoutMs } from './mcp-server-config.js';
import { parse as parseToml } from 'smol-toml';

function server(body: string, name = 's') {
  return parseMcpServerConfig(name, parseToml(body));
}

function errorOf(body: string, name = 's'): ConfigError {
  try {
    server(body, name);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(body)} to be rejected`);
}

describe('parseMcpServerConfig: every key', () => {
  it('applies Codex defaults to a minimal stdio server', () => {
    const { config, warnings } = server('command = "x"');
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      name: 's',
      transport: { type: 'stdio', command: 'x', args: [], env: null, env_vars: [], cwd: null },
      enabled: true,
      required: false,
      startup_timeout_sec: null,
      tool_timeout_sec: null,
      stop_after_idle_sec: null,
      enabled_tools: null,
      disabled_tools: null,
      startup_mode: 'eager',
      environment: null,
      oauth: null,
      oauth_resource: null,
      scopes: null,
      supports_parallel_tool_calls: false,
      always_loaded: false,
      identity: 'operator',
      token_exchange: null,
    });
    expect(startupTimeoutMs(config)).toBe(30_000);
    expect(toolTimeoutMs(config)).toBe(300_000);
    expect(stopAfterIdleMs(config)).toBeUndefined();
  });

  it("reads stop_after_idle_sec in float seconds, 0 meaning never; unset, a stdio server takes the host's default", () => {
    expect(stopAfterIdleMs(server('command = "x"\nstop_after_idle_sec = 600').config, 60)).toBe(600_000);
    expect(stopAfterIdleMs(server('command = "x"\nstop_after_idle_sec = 0.25').config)).toBe(250);
    const never = server('command = "x"\nstop_after_idle_sec = 0').config;
    expect(never.stop_after_idle_sec).toBe(0);
    expect(stopAfterIdleMs(never)).toBeUndefined();
    expect(stopAfterIdleMs(never, 60)).toBeUndefined();
    expect(stopAfterIdleMs(server('command = "x"').config, 60)).toBe(60_000);
    expect(stopAfterIdleMs(server('command = "x"').config, 0)).toBeUndefined();
    expect(stopAfterIdleMs(server('url = "https://h/mcp"').config, 60)).toBeUndefined();
  });

  it('applies defaults to a minimal HTTP server', () => {
    const { config } = server('url = "https://h/mcp"');
    expect(config.transport).toEqual({ type: 'streamable_http', url: 'https://h/mcp', bearer_token_env_var: null, http_headers: null, env_http_headers: null });
  });

  it('reads transport = "sse", oauth details and the shared keys', () => {
    const { config, warnings } = server(`
url = "http://127.0.0.1:9/sse"
transport = "sse"
oauth = { client_id = "cid", client_secret_env_var = "SECRET", grant_type = "client_credentials" }
oauth_resource = "http://127.0.0.1:9"
scopes = []
supports_parallel_tool_calls = true
startup_timeout_sec = 3
startup_timeout_ms = 99000
tool_timeout_sec = 0.5
enabled_tools = []
startup_mode = "lazy"
`);
    expect(warnings).toEqual([]);
    expect(config.transport.type).toBe('sse');
    expect(config).toMatchObject({
      oauth: { client_id: 'cid', client_secret_env_var: 'SECRET', grant_type: 'client_credentials' },
      oauth_resource: 'http://127.0.0.1:9',
      scopes: [],
      supports_parallel_tool_calls: true,
      startup_timeout_sec: 3,
      tool_timeout_sec: 0.5,
      enabled_tools: [],
      startup_mode: 'lazy',
    });
    expect(toolTimeoutMs(config)).toBe(500);
  });

  it('reads Codex names for the environment, and accepts Codex-only keys silently', () => {
    expect(server('command = "x"\nenvironment_id = "box"').config.environment).toBe('box');
    expect(server('command = "x"\nexperimental_environment = "box"').config.environment).toBe('box');
    const { warnings } = server(`
command = "x"
name = "Display name"
default_tools_approval_mode = "prompt"
[tools.search]
approval_mode = "approve"
`);
    expect(warnings).toEqual([]);
  });

  it('warns about each unknown key', () => {
    expect(server('command = "x"\ntrust_level = "high"\nfoo = 1').warnings).toEqual([
      'unknown key mcp_servers.s.trust_level ignored',
      'unknown key mcp_servers.s.foo ignored',
    ]);
  });

  it('freezes the result', () => {
    const { config } = server('command = "x"\nargs = ["a"]');
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => (config.transport as { args: string[] }).args.push('b')).toThrow();
  });
});

describe('parseMcpServerConfig: every validation error', () => {
  it.each([
    // transport selection (Codex's texts)
    ['', 'invalid transport', undefined],
    ['enabled = true', 'invalid transport', undefined],
    ['command = "a"\nurl = "http://x"', 'url is not supported for stdio', 'url'],
    ['command = "a"\nbearer_token_env_var = "T"', 'bearer_token_env_var is not supported for stdio', 'bearer_token_env_var'],
    ['command = "a"\nhttp_headers = {}', 'http_headers is not supported for stdio', 'http_headers'],
    ['command = "a"\nenv_http_headers = {}', 'env_http_headers is not supported for stdio', 'env_http_headers'],
    ['command = "a"\noauth = {}', 'oauth is not supported for stdio', 'oauth'],
    ['command = "a"\noauth_resource = "r"', 'oauth_resource is not supported for stdio', 'oauth_resource'],
    ['command = "a"\ntransport = "sse"', 'transport is not supported for stdio', 'transport'],
    ['command = "a"\nbearer_token = "t"', 'bearer_token is not supported for stdio', 'bearer_token'],
    ['url = "http://x"\nargs = []', 'args is not supported for streamable_http', 'args'],
    ['url = "http://x"\nenv = {}', 'env is not supported for streamable_http', 'env'],
    ['url = "http://x"\nenv_vars = []', 'env_vars is not supported for streamable_http', 'env_vars'],
    ['url = "http://x"\ncwd = "/"', 'cwd is not supported for streamable_http', 'cwd'],
    ['url = "http://x"\nbearer_token = "t"', 'bearer_token is not supported for streamable_http', 'bearer_token'],
    // value types
    ['command = 1', 'command must be a string', 'command'],
    ['command = "a"\nargs = "x"', 'args must be an array of strings', 'args'],
    ['command = "a"\nargs = [1]', 'args must be an array of strings', 'args'],
    ['command = "a"\nenv = "x"', 'env must be a table of strings', 'env'],
    ['command = "a"\nenv = { A = 1 }', 'env.A must be a string', 'env'],
    ['command = "a"\nenv_vars = "A"', 'env_vars must be an array', 'env_vars'],
    ['command = "a"\nenv_vars = [1]', 'env_vars entries must be a name or', 'env_vars'],
    ['command = "a"\nenv_vars = [{ name = "A", source = "cloud" }]', 'unsupported env_vars source `cloud`; expected `local` or `remote`', 'env_vars'],
    ['command = "a"\ncwd = 1', 'cwd must be a string', 'cwd'],
    ['url = 1', 'url must be a string', 'url'],
    ['url = "ws://x"', 'url must be an http:// or https:// URL', 'url'],
    ['url = "not a url"', 'url must be an http:// or https:// URL', 'url'],
    ['url = "http://x"\ntransport = "websocket"', 'transport must be "streamable_http" or "sse"', 'transport'],
    ['url = "http://x"\nbearer_token_env_var = 1', 'bearer_token_env_var must be a string', 'bearer_token_env_var'],
    ['url = "http://x"\nhttp_headers = { A = true }', 'http_headers.A must be a string', 'http_headers'],
    ['url = "http://x"\nenv_http_headers = []', 'env_http_headers must be a table of strings', 'env_http_headers'],
    ['url = "http://x"\noauth = "cid"', 'oauth must be a table', 'oauth'],
    ['url = "http://x"\noauth = { client_id = 1 }', 'oauth.client_id must be a string', 'oauth'],
    ['url = "http://x"\noauth = { grant_type = "password" }', 'oauth.grant_type must be', 'oauth'],
    ['url = "http://x"\ntoken_exchange = { client_secret = "s" }', 'token_exchange.client_secret is not supported; put the secret in an environment variable (token_exchange.client_secret_env_var)', 'token_exchange'],
    ['url = "http://x"\noauth_resource = 1', 'oauth_resource must be a string', 'oauth_resource'],
    ['url = "http://x"\nscopes = "read"', 'scopes must be an array of strings', 'scopes'],
    ['command = "a"\nenabled = "yes"', 'enabled must be true or false', 'enabled'],
    ['command = "a"\nrequired = 1', 'required must be true or false', 'required'],
    ['command = "a"\nsupports_parallel_tool_calls = "no"', 'supports_parallel_tool_calls must be true or false', 'supports_parallel_tool_calls'],
    ['command = "a"\nstartup_timeout_sec = -1', 'startup_timeout_sec must be a non-negative number', 'startup_timeout_sec'],
    ['command = "a"\nstartup_timeout_sec = "30"', 'startup_timeout_sec must be a non-negative number', 'startup_timeout_sec'],
    ['command = "a"\nstartup_timeout_ms = nan', 'startup_timeout_ms must be a non-negative number', 'startup_timeout_ms'],
    ['command = "a"\ntool_timeout_sec = inf', 'tool_timeout_sec must be a non-negative number', 'tool_timeout_sec'],
    ['command = "a"\nstop_after_idle_sec = -5', 'stop_after_idle_sec must be a non-negative number', 'stop_after_idle_sec'],
    ['command = "a"\nenabled_tools = "a"', 'enabled_tools must be an array of strings', 'enabled_tools'],
    ['command = "a"\ndisabled_tools = [true]', 'disabled_tools must be an array of strings', 'disabled_tools'],
    ['command = "a"\nstartup_mode = "later"', 'startup_mode must be "eager" or "lazy"', 'startup_mode'],
    ['command = "a"\nenvironment = 1', 'environment must be a string', 'environment'],
  ])('rejects %j: %s', (body, text, key) => {
    const err = errorOf(body);
    expect(err.detail).toContain(text);
    expect(err.location.keyPath).toEqual(key ? ['mcp_servers', 's', key] : ['mcp_servers', 's']);
  });

  it('rejects invalid names and non-table servers', () => {
    for (const name of ['', 'server name', 'sérver', 'a.b']) {
      expect(errorOf('command = "a"', name).detail).toBe(`Invalid MCP server name '${name}': must match pattern ^[a-zA-Z0-9_-]+$`);
    }
    expect(() => parseMcpServerConfig('s', 'npx')).toThrow('mcp_servers.s must be a table');
    expect(() => parseMcpServerConfig('s', ['x'])).toThrow('mcp_servers.s must be a table');
  });
});
