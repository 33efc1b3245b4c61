import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { buildConfig, loadConfig, parseTomlText } from './config.js';
import { parseOverride } from './overrides.js';

const ctx = { home: '/h', file: '/h/config.toml' };

function load(text: string) {
  return buildConfig(parseTomlText(text, ctx.file), ctx);
}

function errorOf(text: string): ConfigError {
  try {
    load(text);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('mcp_servers parsing', () => {
  it('parses a stdio server with every key and defaults', () => {
    const { config, warnings } = load(`
[mcp_servers.docs]
command = "docs-server"
args = ["--port", "4000"]
env = { API = "x" }
env_vars = ["HOME_DIR", { name = "REMOTE_ONE", source = "remote" }]
cwd = "/srv"
startup_timeout_sec = 12.5
tool_timeout_sec = 60
enabled_tools = ["a"]
disabled_tools = ["b"]
startup_mode = "lazy"
environment = "box"
`);
    expect(warnings).toEqual([]);
    const s = config.mcp_servers.docs!;
    expect(s.transport).toEqual({
      type: 'stdio',
      command: 'docs-server',
      args: ['--port', '4000'],
      env: { API: 'x' },
      env_vars: [
        { name: 'HOME_DIR', source: 'local' },
        { name: 'REMOTE_ONE', source: 'remote' },
      ],
      cwd: '/srv',
    });
    expect(s).toMatchObject({
      enabled: true,
      required: false,
      startup_timeout_sec: 12.5,
      tool_timeout_sec: 60,
      enabled_tools: ['a'],
      disabled_tools: ['b'],
      startup_mode: 'lazy',
      environment: 'box',
    });
    expect(Object.isFrozen(s.transport)).toBe(true);
  });

  it('parses an HTTP server and the legacy startup_timeout_ms', () => {
    const { config } = load(`
[mcp_servers.remote]
url = "https://example.com/mcp"
bearer_token_env_var = "TOKEN"
http_headers = { "X-A" = "1" }
env_http_headers = { "X-B" = "B_VAR" }
oauth = { client_id = "abc" }
oauth_resource = "https://example.com"
scopes = ["read"]
startup_timeout_ms = 2500
required = true
enabled = false
`);
    const s = config.mcp_servers.remote!;
    expect(s.transport).toEqual({
      type: 'streamable_http',
      url: 'https://example.com/mcp',
      bearer_token_env_var: 'TOKEN',
      http_headers: { 'X-A': '1' },
      env_http_headers: { 'X-B': 'B_VAR' },
    });
    expect(s).toMatchObject({ startup_timeout_sec: 2.5, required: true, enabled: false, oauth: { client_id: 'abc' }, scopes: ['read'] });
  });

  it.each([
    ['url = "http://x"\ncommand = "a"', 'url is not supported for stdio'],
    ['args = ["x"]', 'invalid transport'],
    ['command = "a"\nhttp_headers = { A = "b" }', 'http_headers is not supported for stdio'],
    ['command = "a"\noauth = { client_id = "x" }', 'oauth is not supported for stdio'],
    ['command = "a"\nbearer_token_env_var = "X"', 'bearer_token_env_var is not supported for stdio'],
    ['url = "http://x"\nenv = { A = "b" }', 'env is not supported for streamable_http'],
    ['url = "http://x"\ncwd = "/"', 'cwd is not supported for streamable_http'],
    ['url = "http://x"\nbearer_token = "secret"', 'bearer_token is not supported for streamable_http'],
    ['command = "a"\nbearer_token = "secret"', 'bearer_token is not supported for stdio'],
    ['command = "a"\nurl = "http://x"', 'url is not supported for stdio'],
    ['command = "a"\nenv_http_headers = { A = "B" }', 'env_http_headers is not supported for stdio'],
    ['command = "a"\noauth_resource = "http://x"', 'oauth_resource is not supported for stdio'],
    ['command = "a"\ntransport = "sse"', 'transport is not supported for stdio'],
    ['url = "http://x"\nargs = ["a"]', 'args is not supported for streamable_http'],
    ['url = "http://x"\nenv_vars = ["A"]', 'env_vars is not supported for streamable_http'],
    ['command = "a"\nenv_vars = [{ name = "A", source = "elsewhere" }]', 'unsupported env_vars source `elsewhere`; expected `local` or `remote`'],
  ])('rejects %j with Codex text', (body, text) => {
    const err = errorOf(`[mcp_servers.s]\n${body}\n`);
    expect(err.message).toContain(text);
    expect(err.location.keyPath?.slice(0, 2)).toEqual(['mcp_servers', 's']);
  });

  it('rejects bad server names and callback port 0', () => {
    expect(errorOf('[mcp_servers."bad name"]\ncommand = "x"\n').message).toContain(
      "Invalid MCP server name 'bad name': must match pattern ^[a-zA-Z0-9_-]+$",
    );
    expect(errorOf('mcp_oauth_callback_port = 0\n').message).toContain(
      'invalid MCP OAuth callback port `0`: port must be between 1 and 65535',
    );
  });

  it('accepts an https client metadata document URL and rejects others', () => {
    const { config, warnings } = load('mcp_oauth_client_metadata_url = "https://example.com/switchboard/client.json"\n');
    expect(config.mcp_oauth_client_metadata_url).toBe('https://example.com/switchboard/client.json');
    expect(warnings).toEqual([]);
    expect(load('').config.mcp_oauth_client_metadata_url).toBeNull();
    for (const bad of ['http://example.com/client.json', 'https://example.com/', 'not a url']) {
      expect(errorOf(`mcp_oauth_client_metadata_url = "${bad}"\n`).message).toContain('mcp_oauth_client_metadata_url must be an https:// URL with a path');
    }
  });

  it('warns once per unknown key and ignores it', () => {
    const { config, warnings } = load('bogus_top = 1\n[mcp_servers.a]\ncommand = "x"\ntrust_level = "high"\n');
    expect(config.mcp_servers.a).toBeDefined();
    expect(warnings).toEqual(['unknown key bogus_top ignored', 'unknown key mcp_servers.a.trust_level ignored']);
  });

  it('warns about a server under [mcp_server.<name>] (one letter short), naming the table meant', () => {
    const { config, warnings } = load('[mcp_server.tiny]\ncommand = "tiny-server"\n');
    expect(config.mcp_servers).toEqual({});
    expect(warnings).toEqual(['unknown key mcp_server.tiny ignored; did you mean [mcp_servers.tiny]?']);
  });

  it('warns about unknown keys in its own small tables, and names near misses at the top level', () => {
    const { warnings } = load('modle = "gpt-5"\nmcp_serverz = {}\n[mcp_server]\ncodex_event = false\n[store]\npostgres_url = "x"\n[sandbox_workspace_write]\nnetwork_access = true\n');
    expect(warnings).toEqual([
      'unknown key modle ignored; did you mean model?',
      'unknown key mcp_serverz ignored; did you mean mcp_servers?',
      'unknown key mcp_server.codex_event ignored; did you mean codex_events?',
      'unknown key store.postgres_url ignored',
    ]);
  });
});

describe('loadConfig', () => {
  it('reports a TOML syntax error with file, line and column', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-config-'));
    const file = path.join(dir, 'config.toml');
    await writeFile(file, 'model = "x"\n[mcp_servers.a]\ncommand = \n');
    const err = await loadConfig({ home: dir, file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: invalid TOML`));
  });

  it('points a validation error at the line of the key', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-config-'));
    const file = path.join(dir, 'config.toml');
    await writeFile(file, '# top\n\n[mcp_servers.a]\ncommand = "x"\n  url = "http://y"\n\n[mcp_servers.b]\nargs = []\n');
    const err = (await loadConfig({ home: dir, file }).catch((e: unknown) => e)) as ConfigError;
    expect(err.message).toBe(`${file}:5:3: url is not supported for stdio (key mcp_servers.a.url)`);
    await writeFile(file, '# top\n\n[mcp_servers.b]\nargs = []\n');
    const err2 = (await loadConfig({ home: dir, file }).catch((e: unknown) => e)) as ConfigError;
    expect(err2.message).toBe(`${file}:3:1: invalid transport: set \`command\` (a stdio server) or \`url\` (an HTTP server) (key mcp_servers.b)`);
  });

  it('reads a missing default file as an empty config, and rejects with a ConfigError a file it cannot read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-config-'));
    const empty = await loadConfig({ home: dir });
    expect(empty.text).toBeNull();
    expect(empty.config.mcp_servers).toEqual({});
    // The file is read synchronously; a failure still comes as the promise's rejection, not a throw.
    const unreadable = loadConfig({ home: dir, file: dir });
    expect(unreadable).toBeInstanceOf(Promise);
    const err = await unreadable.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(/cannot read config file: EISDIR/);
    await expect(loadConfig({ home: dir, file: path.join(dir, 'absent.toml') })).rejects.toThrow(/config file not found/);
  });

  it('applies -c overrides: TOML values, else literal strings', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-config-'));
    const { config } = await loadConfig({
      home: dir,
      overrides: [
        parseOverride('mcp_servers.x.command=my-server'),
        parseOverride('mcp_servers.x.args=["a", "b"]'),
        parseOverride('mcp_servers.x.startup_timeout_sec=5'),
        parseOverride('model=gpt-5'),
      ],
    });
    expect(config.mcp_servers.x?.transport).toMatchObject({ command: 'my-server', args: ['a', 'b'] });
    expect(config.mcp_servers.x?.startup_timeout_sec).toBe(5);
    expect(config.model).toBe('gpt-5');
  });
});

describe('top-level keys', () => {
  it('reads the MCP OAuth keys and the tool-name limit', () => {
    const { config, warnings } = load(
      'mcp_oauth_credentials_store = "keyring"\nmcp_oauth_callback_port = 8765\nmcp_oauth_callback_url = "https://dev.example.com/cb"\nmcp_tool_name_max_length = 128\n',
    );
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      mcp_oauth_credentials_store: 'keyring',
      mcp_oauth_callback_port: 8765,
      mcp_oauth_callback_url: 'https://dev.example.com/cb',
      mcp_tool_name_max_length: 128,
    });
    expect(load('').config).toMatchObject({ mcp_oauth_credentials_store: 'auto', mcp_oauth_callback_port: null, mcp_tool_name_max_length: 64 });
  });

  it('reads the background-retry delays of failed MCP servers (default 1 s doubling to 30 s)', () => {
    expect(load('').config).toMatchObject({ mcp_restart_initial_delay_ms: 1_000, mcp_restart_max_delay_ms: 30_000 });
    expect(load('mcp_restart_initial_delay_ms = 300\n').config).toMatchObject({ mcp_restart_initial_delay_ms: 300, mcp_restart_max_delay_ms: 30_000 });
    expect(load('mcp_restart_initial_delay_ms = 60000\n').config).toMatchObject({ mcp_restart_initial_delay_ms: 60_000, mcp_restart_max_delay_ms: 60_000 });
    expect(load('mcp_restart_initial_delay_ms = 200\nmcp_restart_max_delay_ms = 400\n').warnings).toEqual([]);
  });

  it("reads serve's mcp_stop_after_idle_sec in float seconds (default 60; 0 keeps servers running)", () => {
    expect(load('').config.mcp_stop_after_idle_sec).toBe(60);
    expect(load('mcp_stop_after_idle_sec = 0\n').config.mcp_stop_after_idle_sec).toBe(0);
    expect(load('mcp_stop_after_idle_sec = 2.5\n').config.mcp_stop_after_idle_sec).toBe(2.5);
  });

  it.each([
    ['mcp_stop_after_idle_sec = -1', 'mcp_stop_after_idle_sec must be a non-negative number'],
    ['mcp_restart_initial_delay_ms = 0', 'mcp_restart_initial_delay_ms must be a whole number of milliseconds between 1 and 86400000'],
    ['mcp_restart_max_delay_ms = 1.5', 'mcp_restart_max_delay_ms must be a whole number of milliseconds'],
    ['mcp_restart_initial_delay_ms = 500\nmcp_restart_max_delay_ms = 100', 'mcp_restart_max_delay_ms must not be less than mcp_restart_initial_delay_ms'],
    ['mcp_oauth_credentials_store = "vault"', 'mcp_oauth_credentials_store must be "auto", "file" or "keyring"'],
    ['mcp_oauth_callback_port = 0', 'invalid MCP OAuth callback port `0`: port must be between 1 and 65535'],
    ['mcp_oauth_callback_port = 65536', 'invalid MCP OAuth callback port `65536`: port must be between 1 and 65535'],
    ['mcp_oauth_callback_port = "x"', 'invalid MCP OAuth callback port `x`'],
    ['mcp_oauth_callback_url = 1', 'mcp_oauth_callback_url must be a string'],
    ['mcp_tool_name_max_length = 8', 'mcp_tool_name_max_length must be an integer between 32 and 1024'],
    ['mcp_servers = 1', 'mcp_servers must be a table'],
    ['profile = "nope"', 'config profile `nope` not found'],
    ['model_provider = "nope"', 'model provider `nope` not found; define [model_providers.nope]'],
  ])('rejects %j', (text, message) => {
    expect(errorOf(`${text}\n`).message).toContain(message);
  });

  it('applies the selected profile over the top level', () => {
    const { config } = load('model = "a"\nprofile = "p"\n[profiles.p]\nmodel = "b"\n[profiles.q]\nmodel = "c"\n');
    expect(config.model).toBe('b');
  });
});

describe('an existing Codex config.toml', () => {
  const fixture = path.join(import.meta.dirname, '../../test/fixtures/codex-config.toml');

  it('loads unchanged, without errors or warnings, with every server and key', async () => {
    const { config, warnings } = await loadConfig({ home: '/nonexistent', file: fixture });
    expect(warnings).toEqual([]);
    expect(Object.keys(config.mcp_servers)).toEqual(['docs', 'legacy_fs', 'github', 'linear']);
    expect(config.mcp_servers.docs).toMatchObject({
      transport: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@acme/docs-mcp', '--port', '4000'],
        env: { DOCS_API_KEY: 'sk-docs-secret', LOG_LEVEL: 'debug' },
        env_vars: [
          { name: 'HOME', source: 'local' },
          { name: 'DOCS_REGION', source: 'local' },
          { name: 'REMOTE_TOKEN', source: 'remote' },
        ],
        cwd: '/Users/me/src',
      },
      required: true,
      startup_timeout_sec: 45.5,
      tool_timeout_sec: 120,
      enabled_tools: ['search', 'fetch'],
      disabled_tools: ['delete'],
      supports_parallel_tool_calls: true,
    });
    expect(config.mcp_servers.legacy_fs).toMatchObject({ enabled: false, startup_timeout_sec: 20 });
    expect(config.mcp_servers.github?.transport).toEqual({
      type: 'streamable_http',
      url: 'https://api.githubcopilot.com/mcp/',
      bearer_token_env_var: 'GITHUB_PAT',
      http_headers: { 'X-MCP-Toolsets': 'repos,issues' },
      env_http_headers: { 'X-Org': 'GITHUB_ORG' },
    });
    expect(config.mcp_servers.github?.enabled_tools).toEqual([]);
    expect(config.mcp_servers.linear).toMatchObject({ oauth: { client_id: 'codex-linear' }, oauth_resource: 'https://mcp.linear.app', scopes: ['read', 'write'] });
    expect(config).toMatchObject({ model: 'gpt-5-codex', approval_policy: 'on-request', sandbox_mode: 'workspace-write', mcp_oauth_credentials_store: 'file', mcp_oauth_callback_port: 8765 });
    expect(config.sandbox_workspace_write.network_access).toBe(true);
  });

  it('takes -c overrides on top of it, and profiles from it', async () => {
    const { config } = await loadConfig({
      home: '/nonexistent',
      file: fixture,
      overrides: [
        parseOverride('profile=azure'),
        parseOverride('mcp_servers.docs.enabled=false'),
        parseOverride('mcp_servers.github.url=https://example.com/other'),
        parseOverride('mcp_servers.new.command=extra-server'),
      ],
    });
    expect(config.model_provider).toBe('azure');
    expect(config.mcp_servers.docs?.enabled).toBe(false);
    expect(config.mcp_servers.github?.transport).toMatchObject({ url: 'https://example.com/other', bearer_token_env_var: 'GITHUB_PAT' });
    expect(config.mcp_servers.new?.transport).toMatchObject({ type: 'stdio', command: 'extra-server' });
  });

  it('reports an override that makes the config invalid at the key, naming the -c that set it', async () => {
    const err = (await loadConfig({ home: '/nonexistent', file: fixture, overrides: [parseOverride('mcp_servers.docs.url=http://x')] }).catch(
      (e: unknown) => e,
    )) as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe('-c mcp_servers.docs.url=http://x: url is not supported for stdio (key mcp_servers.docs.url)');
  });

  it('blames the -c, not the file, for a value it set or a table it made; the file for what the file holds', async () => {
    const failure = async (...args: string[]) =>
      ((await loadConfig({ home: '/nonexistent', file: fixture, overrides: args.map(parseOverride) }).catch((e: unknown) => e)) as ConfigError).message;
    // Not TOML, so read as a string: the error says so.
    expect(await failure('model=gpt-5', 'mcp_servers.docs.args=[bad')).toMatch(
      /^-c mcp_servers\.docs\.args=\[bad: args must be an array of strings; the value is not valid TOML \(.+\), so it was read as the string "\[bad" \(key mcp_servers\.docs\.args\)$/,
    );
    // A table the -c made: `invalid transport` is about it.
    expect(await failure('mcp_servers.fresh.args=["x"]')).toMatch(/^-c mcp_servers\.fresh\.args=\["x"\]: invalid transport: .* \(key mcp_servers\.fresh\)$/);
    // The last of two overrides of one key is the one that counts.
    expect(await failure('mcp_servers.docs.startup_timeout_sec=5', 'mcp_servers.docs.startup_timeout_sec="soon"')).toMatch(/^-c mcp_servers\.docs\.startup_timeout_sec="soon": /);
  });
});

describe('TOML syntax errors', () => {
  it('point at an array or inline table never closed, not where the parser gave up', () => {
    const at = (text: string) => errorOf(text).message;
    expect(at('# servers\n[mcp_servers.tiny]\ncommand = "x"\nargs = ["a", "b"\nenv = { A = "1" }\n\n[mcp_servers.two]\ncommand = "y"\n')).toMatch(
      /^\/h\/config\.toml:4:8: invalid TOML: this array is never closed \(the parser stopped at line 5, column 1: .+\)$/,
    );
    expect(at('[mcp_servers.tiny]\ncommand = "x"\nargs = ["a", "b"\n')).toMatch(/^\/h\/config\.toml:3:8: invalid TOML: this array is never closed \(the parser stopped at line 4, /);
    expect(at('a = { b = "[#"\nc = 2\n')).toMatch(/^\/h\/config\.toml:1:5: invalid TOML: this inline table is never closed/);
    // Brackets inside strings and comments do not count; a closed but malformed array keeps the parser's position.
    expect(at('a = "[" # {\nb = [1, 2 3]\n')).toMatch(/^\/h\/config\.toml:2:11: invalid TOML: /);
    expect(at('a = """\n[\n"""\nb = = 1\n')).toMatch(/^\/h\/config\.toml:4:5: invalid TOML: /);
  });
});

describe('-c override parsing', () => {
  it('splits quoted dotted keys and falls back to a literal string', () => {
    expect(parseOverride('mcp_servers."my.server".command = npx')).toMatchObject({ path: ['mcp_servers', 'my.server', 'command'], value: 'npx' });
    expect(parseOverride('a.b=[1, 2]').value).toEqual([1, 2]);
    expect(parseOverride('a={ x = "y" }').value).toEqual({ x: 'y' });
    expect(parseOverride('a=true').value).toBe(true);
    expect(parseOverride('a="quoted"').value).toBe('quoted');
    expect(parseOverride('a=https://x/y?z=1').value).toBe('https://x/y?z=1');
  });

  it.each(['novalue', '=x', 'a..b=1', 'a."b=1'])('rejects %j', (arg) => {
    expect(() => parseOverride(arg)).toThrow(ConfigError);
  });
});
