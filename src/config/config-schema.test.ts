// The texts the zod schemas produce through error maps, custom issues and the issue translation, checked
// whole with their file:line:column; the old readers' quirks they keep; and no zod default text leaking.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { buildConfig, loadConfig } from './config.js';
import { parseMcpServerConfig } from './mcp-server-config.js';
import { KNOWN_SERVER_KEYS } from './mcp-server-schema.js';

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sb-config-schema-'));
  file = path.join(dir, 'config.toml');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function messageOf(text: string): Promise<string> {
  await writeFile(file, text);
  const err = await loadConfig({ home: dir, file }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ConfigError)) throw new Error(`expected a ConfigError for ${JSON.stringify(text)}, got ${String(err)}`);
  return err.message.slice(file.length);
}

describe('error texts with file:line:column', () => {
  it.each([
    // [mcp_servers.<name>]
    ['[mcp_servers.s]\ncommand = "a"\nenv_vars = "A"\n', ':3:1: env_vars must be an array of names or { name, source } tables (key mcp_servers.s.env_vars)'],
    ['[mcp_servers.s]\ncommand = "a"\nenv_vars = ["A", 1]\n', ':3:1: env_vars entries must be a name or { name = "NAME", source = "local" | "remote" } (key mcp_servers.s.env_vars)'],
    ['[mcp_servers.s]\ncommand = "a"\nenv_vars = [{ source = "local" }]\n', ':3:1: env_vars entries must be a name or { name = "NAME", source = "local" | "remote" } (key mcp_servers.s.env_vars)'],
    ['[mcp_servers.s]\ncommand = "a"\nenv_vars = [{ name = "A", source = 1 }]\n', ':3:1: unsupported env_vars source `1`; expected `local` or `remote` (key mcp_servers.s.env_vars)'],
    ['[mcp_servers.s]\ncommand = "a"\n  env = { A = "x", B = 1 }\n', ':3:3: env.B must be a string (key mcp_servers.s.env)'],
    ['[mcp_servers.s]\ncommand = "a"\nargs = ["x", 2]\n', ':3:1: args must be an array of strings (key mcp_servers.s.args)'],
    ['[mcp_servers.s]\nurl = "ws://x"\n', ':2:1: url must be an http:// or https:// URL, got "ws://x" (key mcp_servers.s.url)'],
    ['[mcp_servers.s]\nurl = "http://x"\ntransport = 1\n', ':3:1: transport must be a string (key mcp_servers.s.transport)'],
    ['[mcp_servers.s]\ncommand = "a"\nstartup_mode = 1\n', ':3:1: startup_mode must be a string (key mcp_servers.s.startup_mode)'],
    ['[mcp_servers.s]\nurl = "http://x"\noauth = "cid"\n', ':3:1: oauth must be a table such as { client_id = "..." } (key mcp_servers.s.oauth)'],
    ['[mcp_servers.s]\nurl = "http://x"\noauth = { client_secret_env_var = 1 }\n', ':3:1: oauth.client_secret_env_var must be a string (key mcp_servers.s.oauth)'],
    ['[mcp_servers.s]\nurl = "http://x"\noauth = { grant_type = 1 }\n', ':3:1: oauth.grant_type must be "authorization_code", "client_credentials", "jwt_bearer" or "identity_assertion" (key mcp_servers.s.oauth)'],
    ['[mcp_servers.s]\ncommand = "a"\nstartup_timeout_ms = -5\n', ':3:1: startup_timeout_ms must be a non-negative number (key mcp_servers.s.startup_timeout_ms)'],
    // top level (locateKey finds no line for a key outside a [table], as before)
    ['approval_policy = 1\n', ': approval_policy must be one of "untrusted", "on-failure", "on-request", "never" (key approval_policy)'],
    ['sandbox_mode = "yolo"\n', ': sandbox_mode must be one of "read-only", "workspace-write", "danger-full-access" (key sandbox_mode)'],
    ['mcp_oauth_credentials_store = 1\n', ': mcp_oauth_credentials_store must be a string (key mcp_oauth_credentials_store)'],
    ['model = "m"\n\n[sandbox_workspace_write]\nnetwork_access = true\nwritable_roots = ["/a", 1]\n', ':5:1: writable_roots must be an array of paths (key sandbox_workspace_write.writable_roots)'],
    ['sandbox_workspace_write = 1\n', ': sandbox_workspace_write must be a table (key sandbox_workspace_write)'],
    ['mcp_server = []\n', ': mcp_server must be a table (key mcp_server)'],
    ['model = "m"\nmcp_restart_initial_delay_ms = 500\nmcp_restart_max_delay_ms = 100\n', ': mcp_restart_max_delay_ms must not be less than mcp_restart_initial_delay_ms (key mcp_restart_max_delay_ms)'],
    ['mcp_restart_initial_delay_ms = true\n', ': mcp_restart_initial_delay_ms must be a whole number of milliseconds between 1 and 86400000 (key mcp_restart_initial_delay_ms)'],
    // a table gives the key's text (buildConfig on a prototype-less parsed table used to throw a TypeError here)
    ['mcp_tool_name_max_length = {}\n', ': mcp_tool_name_max_length must be an integer between 32 and 1024 (key mcp_tool_name_max_length)'],
    ['mcp_oauth_callback_port = {}\n', ': invalid MCP OAuth callback port `[object Object]`: port must be between 1 and 65535 (key mcp_oauth_callback_port)'],
    // [store]
    ['store = 1\n', ': store must be a table (key store)'],
    ['[store]\npostgres_url_env_var = 5\n', ':2:1: store.postgres_url_env_var must be a string: the name of an environment variable (key store.postgres_url_env_var)'],
    ['[store]\npostgres_url_env_var = "postgres://u:p@h/db"\n', ':2:1: store.postgres_url_env_var must be the name of an environment variable (letters, digits and _), such as "SWITCHBOARD_DATABASE_URL", not "postgres://u:p@h/db"; the value itself stays out of config.toml (key store.postgres_url_env_var)'],
    // [environments.<id>]
    ['[environments.e]\ntype = "ssh"\n', ':1:1: an ssh environment needs host = "..." (key environments.e)'],
    ['[environments.e]\nurl = "http://x"\n', ':2:1: url must start with ws:// or wss:// (key environments.e.url)'],
    ['[environments.e]\nhost = ""\n', ':2:1: host must be a non-empty string (key environments.e.host)'],
    ['[environments.e]\nhost = "h"\nport = 0\n', ':3:1: port must be between 1 and 65535 (key environments.e.port)'],
    ['[environments.e]\nhost = "h"\nport = {}\n', ':3:1: port must be between 1 and 65535 (key environments.e.port)'],
    ['[environments.e]\ntype = "docker"\n', ':2:1: environment type must be "exec-server" (with url) or "ssh" (with host) (key environments.e.type)'],
    ['[environments.e]\ntype = 1\n', ':2:1: type must be a non-empty string (key environments.e.type)'],
    // [model_providers.<id>]
    ['[model_providers.p]\nwire_api = "grpc"\n', ':2:1: wire_api must be "responses" or "chat" (key model_providers.p.wire_api)'],
    ['[model_providers.p]\nwire_api = 1\n', ':2:1: wire_api must be a string (key model_providers.p.wire_api)'],
    ['[model_providers.p]\nquery_params = { a = 1 }\n', ':2:1: query_params must be a table of strings (key model_providers.p.query_params)'],
    ['[model_providers.p]\nrequest_max_retries = -1\n', ':2:1: request_max_retries must be a non-negative number (key model_providers.p.request_max_retries)'],
  ])('%j', async (text, message) => {
    expect(await messageOf(text)).toBe(message);
  });
});

describe('[store]', () => {
  it('is files under $SWITCHBOARD_HOME unless postgres_url_env_var names a variable', () => {
    const ctx = { home: '/h', file: '/h/config.toml' };
    expect(buildConfig({}, ctx).config.store).toEqual({ postgres_url_env_var: null, credentials_key_env_var: null });
    expect(buildConfig({ store: { postgres_url_env_var: 'SWITCHBOARD_DATABASE_URL' } }, ctx).config.store).toEqual({ postgres_url_env_var: 'SWITCHBOARD_DATABASE_URL', credentials_key_env_var: null });
    expect(buildConfig({ store: {} }, ctx).warnings).toEqual([]);
  });
});

describe("the old readers' quirks, kept", () => {
  const ctx = { home: '/h', file: '/h/config.toml' };

  it('reads only the first of a setting’s names, and does not check the others', () => {
    const s = parseMcpServerConfig('s', { command: 'a', environment: 'box', environment_id: 1, startup_timeout_sec: 2, startup_timeout_ms: 'x' });
    expect(s.config).toMatchObject({ environment: 'box', startup_timeout_sec: 2 });
    expect(parseMcpServerConfig('s', { command: 'a', startup_timeout_ms: 1500 }).config.startup_timeout_sec).toBe(1.5);
  });

  it('takes numeric strings for the numeric top-level keys, and only `true` for a sandbox flag', () => {
    const { config } = buildConfig({ mcp_oauth_callback_port: '8080', mcp_tool_name_max_length: '100', sandbox_workspace_write: { network_access: 'yes' } } as Record<string, unknown>, ctx);
    expect(config).toMatchObject({ mcp_oauth_callback_port: 8080, mcp_tool_name_max_length: 100, sandbox_workspace_write: { network_access: false } });
  });

  it('fills a built-in provider’s keys under a partial table', () => {
    const { config } = buildConfig({ model_providers: { oss: { base_url: 'http://box:11434/v1' } } }, ctx);
    expect(config.model_providers.oss).toMatchObject({ name: 'gpt-oss', wire_api: 'chat', base_url: 'http://box:11434/v1' });
  });

  it('never reads a `__proto__` key of a string table (zod skips it; a string value was dropped before too)', () => {
    const env = JSON.parse('{"__proto__": 1, "A": "a"}') as Record<string, unknown>;
    expect(parseMcpServerConfig('s', { command: 'a', env }).config.transport).toMatchObject({ env: { A: 'a' } });
  });
});

describe('no zod default text reaches the user', () => {
  const ZOD_DEFAULT = /Invalid input|Invalid option|Too small|Too big|Invalid string|Invalid element|Invalid key|nonoptional/;
  const values: unknown[] = [1, -1, 'x', '', true, [1], ['x'], { a: 1 }, { name: 1 }, new Date(0), Number.NaN];

  it.each([...KNOWN_SERVER_KEYS])('[mcp_servers] key %s', (key) => {
    for (const base of [{ command: 'a' }, { url: 'http://x' }]) {
      for (const value of values) {
        try {
          parseMcpServerConfig('s', { ...base, [key]: value });
        } catch (err) {
          if (!(err instanceof ConfigError)) throw err;
          expect(err.detail).not.toMatch(ZOD_DEFAULT);
        }
      }
    }
  });

  it('top-level keys, environments and providers', () => {
    const ctx = { home: '/h', file: '/h/config.toml' };
    const keys = [
      'mcp_oauth_credentials_store', 'mcp_oauth_callback_port', 'mcp_oauth_callback_url', 'mcp_oauth_client_metadata_url', 'mcp_tool_name_max_length',
      'mcp_restart_initial_delay_ms', 'mcp_restart_max_delay_ms', 'model', 'approval_policy', 'sandbox_mode', 'sandbox_workspace_write',
      'base_instructions', 'developer_instructions', 'mcp_server',
    ];
    const tables = [
      ...keys.map((k) => (v: unknown) => ({ [k]: v })),
      (v: unknown) => ({ sandbox_workspace_write: { writable_roots: v } }),
      ...['type', 'url', 'host', 'port', 'user', 'token_env_var', 'identity_file'].map((k) => (v: unknown) => ({ environments: { e: { host: 'h', [k]: v } } })),
      ...['wire_api', 'name', 'base_url', 'env_key', 'query_params', 'http_headers', 'stream_idle_timeout_ms'].map((k) => (v: unknown) => ({ model_providers: { p: { [k]: v } } })),
    ];
    for (const table of tables) {
      for (const value of values) {
        try {
          buildConfig(table(value) as Record<string, unknown>, ctx);
        } catch (err) {
          if (!(err instanceof ConfigError)) throw err;
          expect(err.detail).not.toMatch(ZOD_DEFAULT);
        }
      }
    }
  });
});
