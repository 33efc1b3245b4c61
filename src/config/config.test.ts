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
    ['url = "http://x"\ncommand = "a"', 'invalid transport'],
    ['args = ["x"]', 'invalid transport'],
    ['command = "a"\nhttp_headers = { A = "b" }', 'http_headers is not supported for stdio'],
    ['command = "a"\noauth = { client_id = "x" }', 'oauth is not supported for stdio'],
    ['command = "a"\nbearer_token_env_var = "X"', 'bearer_token_env_var is not supported for stdio'],
    ['url = "http://x"\nenv = { A = "b" }', 'env is not supported for streamable_http'],
    ['url = "http://x"\ncwd = "/"', 'cwd is not supported for streamable_http'],
    ['url = "http://x"\nbearer_token = "secret"', 'bearer_token is not supported'],
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
    await writeFile(file, '# top\n\n[mcp_servers.a]\ncommand = "x"\n  url = "http://y"\n');
    const err = (await loadConfig({ home: dir, file }).catch((e: unknown) => e)) as ConfigError;
    expect(err.message).toBe(`${file}:3:1: invalid transport (key mcp_servers.a)`);
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
