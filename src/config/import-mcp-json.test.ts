import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { parseMcpJson, stripJsonComments } from './import-mcp-json.js';

const FILE = '/p/.mcp.json';

function errorOf(text: string): ConfigError {
  try {
    parseMcpJson(text, FILE);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('parseMcpJson: formats', () => {
  it('reads Claude Desktop / Cursor mcpServers with stdio and remote servers', () => {
    const plan = parseMcpJson(
      JSON.stringify({
        mcpServers: {
          filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
          stream: { type: 'streamable-http', url: 'https://mcp.example.com/a' },
          camel: { type: 'streamableHttp', url: 'https://mcp.example.com/b' },
          legacy: { type: 'sse', url: 'https://mcp.example.com/events' },
          cursor: { url: 'https://mcp.example.com/c' },
        },
      }),
      FILE,
    );
    expect(plan.source).toBe('mcpServers');
    expect(plan.skipped).toEqual([]);
    expect(Object.fromEntries(plan.servers.map((s) => [s.name, s.table]))).toEqual({
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
      remote: { url: 'https://mcp.example.com/mcp' },
      stream: { url: 'https://mcp.example.com/a' },
      camel: { url: 'https://mcp.example.com/b' },
      legacy: { url: 'https://mcp.example.com/events', transport: 'sse' },
      cursor: { url: 'https://mcp.example.com/c' },
    });
    expect(plan.servers.every((s) => s.warnings.length === 0)).toBe(true);
  });

  it('reads VS Code mcp.json (JSONC with comments and trailing commas, "servers", "inputs")', () => {
    const text = `{
  // VS Code workspace servers
  "inputs": [{ "type": "promptString", "id": "token", "password": true }],
  "servers": {
    "fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"], "cwd": "/srv", }, /* trailing */
    "gh": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer \${input:token}" } },
  },
}`;
    const plan = parseMcpJson(text, FILE);
    expect(plan.source).toBe('servers');
    expect(plan.servers.map((s) => s.table)).toEqual([
      { command: 'uvx', args: ['mcp-server-fetch'], cwd: '/srv' },
      { url: 'https://api.githubcopilot.com/mcp/', http_headers: { Authorization: 'Bearer ${input:token}' } },
    ]);
    expect(plan.servers[1]!.warnings).toEqual([
      'header Authorization uses a VS Code input variable, which switchboard does not prompt for; edit the value in config.toml',
    ]);
  });

  it('reads the "mcp": { "servers" } block of VS Code settings.json', () => {
    const plan = parseMcpJson('{ "editor.fontSize": 12, "mcp": { "servers": { "a": { "command": "x" } } } }', FILE);
    expect(plan.source).toBe('mcp.servers');
    expect(plan.servers.map((s) => s.name)).toEqual(['a']);
  });

  it('keeps string contents that look like comments', () => {
    expect(stripJsonComments('{"a": "http://x // y", "b": "/* z */"} // c')).toBe('{"a": "http://x // y", "b": "/* z */"}     ');
  });
});

describe('parseMcpJson: secrets and placeholders', () => {
  it('imports literal header secrets but warns that they are now in config.toml', () => {
    const plan = parseMcpJson(
      JSON.stringify({ mcpServers: { api: { url: 'https://h/mcp', headers: { Authorization: 'Bearer sk-123', 'X-Api-Key': 'k', 'X-Team': 'core' } } } }),
      FILE,
    );
    const [api] = plan.servers;
    expect(api!.table).toEqual({ url: 'https://h/mcp', http_headers: { Authorization: 'Bearer sk-123', 'X-Api-Key': 'k', 'X-Team': 'core' } });
    expect(api!.warnings).toHaveLength(2);
    expect(api!.warnings[0]).toMatch(/^header Authorization holds a secret that is now stored in plain text in config\.toml; .*bearer_token_env_var/);
    expect(api!.warnings[1]).toMatch(/^header X-Api-Key holds a secret/);
  });

  it('turns environment placeholders into bearer_token_env_var, env_http_headers and env_vars', () => {
    const plan = parseMcpJson(
      JSON.stringify({
        mcpServers: {
          api: { url: 'https://h/mcp', headers: { Authorization: 'Bearer ${env:API_TOKEN}', 'X-Org': '${ORG_ID}' } },
          local: { command: 'srv', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', OTHER: '${SOMETHING_ELSE}', PLAIN: 'v' } },
        },
      }),
      FILE,
    );
    const [api, local] = plan.servers;
    expect(api!.table).toEqual({ url: 'https://h/mcp', bearer_token_env_var: 'API_TOKEN', env_http_headers: { 'X-Org': 'ORG_ID' } });
    expect(api!.warnings).toEqual([]);
    expect(local!.table).toEqual({ command: 'srv', env_vars: ['GITHUB_TOKEN'], env: { OTHER: '${SOMETHING_ELSE}', PLAIN: 'v' } });
    expect(local!.warnings).toEqual(['env OTHER contains a ${...} placeholder, which switchboard does not expand; edit the value in config.toml']);
  });
});

describe('parseMcpJson: names and bad entries', () => {
  it('sanitises invalid names with a note and skips what cannot be imported', () => {
    const plan = parseMcpJson(
      JSON.stringify({
        mcpServers: {
          'my server': { command: 'a' },
          '@scope/pkg': { command: 'b' },
          'my_server': { command: 'c' },
          '???': { command: 'd' },
          nothing: { args: ['x'] },
          both: { command: 'a', url: 'http://h' },
          ws: { url: 'ws://h' },
          weird: { type: 'websocket', url: 'http://h' },
          notobj: 'npx server',
          badargs: { command: 'a', args: 'x' },
          off: { command: 'e', disabled: true, autoApprove: ['t'] },
        },
      }),
      FILE,
    );
    expect(plan.servers.map((s) => [s.sourceName, s.name])).toEqual([
      ['my server', 'my_server'],
      ['@scope/pkg', '_scope_pkg'],
      ['???', '_'],
      ['off', 'off'],
    ]);
    expect(plan.servers[0]!.warnings).toEqual(["name 'my server' is not a valid server name here; imported as 'my_server'"]);
    expect(plan.servers[3]!.table).toEqual({ command: 'e', enabled: false });
    expect(plan.servers[3]!.warnings).toEqual(['key "autoApprove" has no switchboard equivalent and was ignored']);
    expect(plan.skipped).toEqual([
      { name: 'my_server', reason: "another server in the file is also imported as 'my_server'" },
      { name: 'nothing', reason: 'needs a command or a url' },
      { name: 'both', reason: 'has both command and url' },
      { name: 'ws', reason: 'url must be an http:// or https:// URL, got "ws://h"' },
      { name: 'weird', reason: 'unsupported type "websocket"' },
      { name: 'notobj', reason: 'entry must be an object' },
      { name: 'badargs', reason: 'args must be an array of strings' },
    ]);
  });

  it('guesses sse for an untyped URL ending in /sse, with a note', () => {
    const [s] = parseMcpJson('{"mcpServers": {"old": {"url": "http://127.0.0.1:3000/sse"}}}', FILE).servers;
    expect(s!.table).toEqual({ url: 'http://127.0.0.1:3000/sse', transport: 'sse' });
    expect(s!.warnings).toEqual(['no type given and the URL ends in /sse: imported with transport = "sse"']);
  });

  it('reports malformed JSON with file, line and column', () => {
    const err = errorOf('{\n  "mcpServers": {\n    "a": { "command": "x" ]\n  }\n}\n');
    expect(err.message).toMatch(/^\/p\/\.mcp\.json:3:\d+: invalid JSON: /);
    expect(err.location.line).toBe(3);
  });

  it('reports a file without servers', () => {
    expect(errorOf('{"servers": []}').message).toBe('/p/.mcp.json: no "mcpServers" (Claude, Cursor) or "servers" (VS Code) object found');
    expect(errorOf('[]').detail).toContain('no "mcpServers"');
    expect(errorOf('').message).toMatch(/^\/p\/\.mcp\.json(:\d+:\d+)?: invalid JSON/);
  });
});
