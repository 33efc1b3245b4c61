// buildConfig's typed input: a misspelt key is a compile error (checked by `npm run typecheck`), and
// the types name every key the validation knows.
import { describe, expect, it } from 'vitest';
import { buildConfig } from './config.js';
import type { HttpServerInput, StdioServerInput } from './config-input.js';
import { KNOWN_SERVER_KEYS } from './mcp-server-schema.js';

const ctx = { home: '/h' };

describe('buildConfig input', () => {
  it('refuses a misspelt key at compile time; at run time the error names the key meant', () => {
    const build = () =>
      // @ts-expect-error -- `comand` is not a key of a server table.
      buildConfig({ mcp_servers: { docs: { comand: 'docs-server' } } }, ctx);
    expect(build).toThrow(
      'invalid transport: set `command` (a stdio server) or `url` (an HTTP server); `comand` is not a key: did you mean `command`? (key mcp_servers.docs)',
    );
  });

  it('needs no file for a config built in code', () => {
    const { config, warnings } = buildConfig({ mcp_servers: { docs: { command: 'docs-server', args: ['--stdio'] } } }, ctx);
    expect(warnings).toEqual([]);
    expect(config.file).toBe('');
    expect(config.mcp_servers.docs?.transport).toMatchObject({ type: 'stdio', command: 'docs-server', args: ['--stdio'] });
  });

  it('types every key of a server table the validation knows, and no other', () => {
    const stdio: Required<StdioServerInput> = {
      command: 'x', args: [], env: {}, env_vars: [], cwd: '/',
      enabled: true, required: false, startup_timeout_sec: 1, startup_timeout_ms: 1, tool_timeout_sec: 1, stop_after_idle_sec: 60, enabled_tools: [], disabled_tools: [],
      startup_mode: 'eager', environment: 'local', environment_id: 'local', experimental_environment: 'local', scopes: [], always_loaded: false,
      supports_parallel_tool_calls: false, default_tools_approval_mode: null, tools: null, name: null,
    };
    const http: Required<Omit<HttpServerInput, keyof StdioServerInput>> = {
      url: 'http://x', transport: 'sse', bearer_token_env_var: 'T', http_headers: {}, env_http_headers: {}, oauth: {}, oauth_resource: 'r', identity: 'operator', token_exchange: {},
    };
    expect(new Set([...Object.keys(stdio), ...Object.keys(http)])).toEqual(KNOWN_SERVER_KEYS);
  });
});
