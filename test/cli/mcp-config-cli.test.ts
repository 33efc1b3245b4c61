// `switchboard mcp add/remove/list/get` in-process: outputs, JSON shapes, exit codes, file contents.
import { chmod, copyFile, lstat, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';

let home: string;
let cleanup: () => Promise<void>;
let configPath: string;

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  configPath = path.join(home, 'config.toml');
});
afterEach(async () => {
  await cleanup();
});

const cli = (...args: string[]) => runCli(args, { home });

describe('mcp add / list / get / remove round trip', () => {
  it('adds stdio and HTTP servers and shows them as Codex does', async () => {
    expect(await cli('mcp', 'list')).toEqual({
      code: 0,
      stdout: 'No MCP servers configured yet. Try `switchboard mcp add my-tool -- my-command`.\n',
      stderr: '',
    });
    expect(await cli('mcp', 'list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });

    expect(await cli('mcp', 'add', 'docs', '--env', 'TOKEN=s3cr=t', '--env', ' API = x ', '--', 'npx', '-y', 'docs-mcp', '--port', '4000')).toEqual({
      code: 0,
      stdout: "Added global MCP server 'docs'.\n",
      stderr: '',
    });
    expect((await cli('mcp', 'add', 'gh', '--url', 'https://api.example.com/mcp', '--bearer-token-env-var', 'GH_PAT')).code).toBe(0);
    expect(
      (await cli('mcp', 'add', 'linear', '--url', 'https://mcp.linear.app/mcp', '--oauth-client-id', 'cid', '--oauth-resource', 'https://mcp.linear.app'))
        .code,
    ).toBe(0);

    expect(await readFile(configPath, 'utf8')).toBe(
      [
        '[mcp_servers.docs]',
        'command = "npx"',
        'args = [ "-y", "docs-mcp", "--port", "4000" ]',
        '',
        '[mcp_servers.docs.env]',
        'TOKEN = "s3cr=t"',
        'API = " x "',
        '',
        '[mcp_servers.gh]',
        'url = "https://api.example.com/mcp"',
        'bearer_token_env_var = "GH_PAT"',
        '',
        '[mcp_servers.linear]',
        'url = "https://mcp.linear.app/mcp"',
        'oauth_resource = "https://mcp.linear.app"',
        '',
        '[mcp_servers.linear.oauth]',
        'client_id = "cid"',
        '',
      ].join('\n'),
    );

    const list = await cli('mcp', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(
      [
        'Name  Command  Args                     Env                     Cwd  Status   Auth',
        'docs  npx      -y docs-mcp --port 4000  API=*****, TOKEN=*****  -    enabled  Unsupported',
        '',
        'Name    Url                          Bearer Token Env Var  Status   Auth',
        'gh      https://api.example.com/mcp  GH_PAT                enabled  Bearer token',
        'linear  https://mcp.linear.app/mcp   -                     enabled  Not logged in',
        '',
      ].join('\n'),
    );
    expect(list.stdout).not.toContain('s3cr');

    expect(JSON.parse((await cli('mcp', 'list', '--json')).stdout)).toEqual([
      {
        name: 'docs',
        enabled: true,
        disabled_reason: null,
        transport: { type: 'stdio', command: 'npx', args: ['-y', 'docs-mcp', '--port', '4000'], env: { TOKEN: 's3cr=t', API: ' x ' }, env_vars: [], cwd: null },
        startup_timeout_sec: null,
        tool_timeout_sec: null,
        auth_status: 'unsupported',
      },
      {
        name: 'gh',
        enabled: true,
        disabled_reason: null,
        transport: { type: 'streamable_http', url: 'https://api.example.com/mcp', bearer_token_env_var: 'GH_PAT', http_headers: null, env_http_headers: null },
        startup_timeout_sec: null,
        tool_timeout_sec: null,
        auth_status: 'bearer_token',
      },
      {
        name: 'linear',
        enabled: true,
        disabled_reason: null,
        transport: { type: 'streamable_http', url: 'https://mcp.linear.app/mcp', bearer_token_env_var: null, http_headers: null, env_http_headers: null },
        startup_timeout_sec: null,
        tool_timeout_sec: null,
        auth_status: 'not_logged_in',
      },
    ]);

    expect(await cli('mcp', 'get', 'docs')).toEqual({
      code: 0,
      stdout: [
        'docs',
        '  enabled: true',
        '  transport: stdio',
        '  command: npx',
        '  args: -y docs-mcp --port 4000',
        '  cwd: -',
        '  env: API=*****, TOKEN=*****',
        '  remove: switchboard mcp remove docs',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(JSON.parse((await cli('mcp', 'get', 'gh', '--json')).stdout)).toEqual({
      name: 'gh',
      enabled: true,
      disabled_reason: null,
      transport: { type: 'streamable_http', url: 'https://api.example.com/mcp', bearer_token_env_var: 'GH_PAT', http_headers: null, env_http_headers: null },
      enabled_tools: null,
      disabled_tools: null,
      startup_timeout_sec: null,
      tool_timeout_sec: null,
    });

    expect(await cli('mcp', 'remove', 'gh')).toEqual({ code: 0, stdout: "Removed global MCP server 'gh'.\n", stderr: '' });
    expect(await cli('mcp', 'remove', 'gh')).toEqual({ code: 1, stdout: '', stderr: "error: No MCP server named 'gh' found.\n" });
    expect(await cli('mcp', 'get', 'gh')).toEqual({ code: 1, stdout: '', stderr: "error: No MCP server named 'gh' found.\n" });
    expect(await cli('mcp', 'remove', 'docs')).toMatchObject({ code: 0 });
    expect(await cli('mcp', 'remove', 'linear')).toMatchObject({ code: 0 });
    expect(await readFile(configPath, 'utf8')).toBe('');
  });

  it('replaces a server of the same name in place, as Codex does', async () => {
    await writeFile(configPath, '# mine\n[mcp_servers.a]\ncommand = "old"\n\n[mcp_servers.a.env]\nK = "v"\n\n[tui]\nx = 1\n');
    expect((await cli('mcp', 'add', 'a', '--url', 'http://127.0.0.1:1/mcp')).stdout).toBe("Added global MCP server 'a'.\nMCP server may or may not require login. Run `switchboard mcp login a` to login.\n");
    expect(await readFile(configPath, 'utf8')).toBe('# mine\n[mcp_servers.a]\nurl = "http://127.0.0.1:1/mcp"\n\n[tui]\nx = 1\n');
  });

  it('shows the environment, sse transport, timeouts, tool filters and disabled servers', async () => {
    await writeFile(
      configPath,
      [
        '[mcp_servers.remote_fs]',
        'command = "fs-server"',
        'environment = "buildbox"',
        'env_vars = ["HOME", { name = "TOKEN", source = "remote" }]',
        'cwd = "/srv"',
        'startup_timeout_sec = 12.5',
        'tool_timeout_sec = 60',
        'stop_after_idle_sec = 600',
        'enabled_tools = []',
        'disabled_tools = ["rm", "mv"]',
        '[mcp_servers.events]',
        'url = "http://127.0.0.1:9/sse"',
        'transport = "sse"',
        'http_headers = { Authorization = "Bearer secret-value", "X-B" = "2" }',
        'env_http_headers = { "X-Env" = "ENV_VAR" }',
        '[mcp_servers.off]',
        'command = "x"',
        'enabled = false',
        '',
      ].join('\n'),
    );
    const list = await cli('mcp', 'list');
    expect(list.stdout).toBe(
      [
        'Name       Command    Args  Env                      Cwd   Environment  Status    Auth',
        'off        x          -     -                        -     -            disabled  Unsupported',
        'remote_fs  fs-server  -     HOME=*****, TOKEN=*****  /srv  buildbox     enabled   Unsupported',
        '',
        'Name    Url                     Bearer Token Env Var  Status   Auth',
        'events  http://127.0.0.1:9/sse  -                     enabled  Bearer token',
        '',
      ].join('\n'),
    );
    const json = JSON.parse((await cli('mcp', 'list', '--json')).stdout) as Record<string, unknown>[];
    expect(json.map((e) => e.name)).toEqual(['events', 'off', 'remote_fs']);
    expect(json[0]).toMatchObject({ transport: { type: 'sse', http_headers: { Authorization: 'Bearer secret-value', 'X-B': '2' } }, auth_status: 'bearer_token' });
    expect(json[0]).not.toHaveProperty('environment');
    expect(json[2]).toMatchObject({
      environment: 'buildbox',
      transport: { env_vars: ['HOME', { name: 'TOKEN', source: 'remote' }], cwd: '/srv', env: null },
      startup_timeout_sec: 12.5,
      tool_timeout_sec: 60,
    });
    expect(json[2]).not.toHaveProperty('stop_after_idle_sec'); // Codex's list shape
    expect((await cli('mcp', 'get', 'remote_fs')).stdout).toBe(
      [
        'remote_fs',
        '  enabled: true',
        '  enabled_tools: []',
        '  disabled_tools: rm, mv',
        '  transport: stdio',
        '  command: fs-server',
        '  args: -',
        '  cwd: /srv',
        '  env: HOME=*****, TOKEN=*****',
        '  environment: buildbox',
        '  startup_timeout_sec: 12.5',
        '  tool_timeout_sec: 60',
        '  stop_after_idle_sec: 600',
        '  remove: switchboard mcp remove remote_fs',
        '',
      ].join('\n'),
    );
    const events = await cli('mcp', 'get', 'events');
    expect(events.stdout).toContain('  transport: sse\n  url: http://127.0.0.1:9/sse\n  bearer_token_env_var: -\n  http_headers: Authorization=*****, X-B=*****\n  env_http_headers: X-Env=ENV_VAR\n');
    expect(events.stdout).not.toContain('secret-value');
    expect(await cli('mcp', 'get', 'off')).toEqual({ code: 0, stdout: 'off (disabled)\n', stderr: '' });
    expect(JSON.parse((await cli('mcp', 'get', 'remote_fs', '--json')).stdout)).toMatchObject({ enabled_tools: [], disabled_tools: ['rm', 'mv'], environment: 'buildbox', stop_after_idle_sec: 600 });
  });
});

describe('usage errors exit 2 and write nothing', () => {
  it.each([
    [['mcp', 'add', 'bad name', '--', 'x'], "error: invalid server name 'bad name' (use letters, numbers, '-', '_')\n"],
    [['mcp', 'add', 'a.b', '--url', 'http://x'], "error: invalid server name 'a.b' (use letters, numbers, '-', '_')\n"],
    [['mcp', 'add', 'a'], 'error: exactly one of a command (after --) or --url must be provided\n'],
    [['mcp', 'add', 'a', '--url', 'http://x', '--', 'cmd'], 'error: exactly one of a command (after --) or --url must be provided\n'],
    [['mcp', 'add', 'a', '--env', 'NOEQUALS', '--', 'cmd'], 'error: environment entries must be in KEY=VALUE form\n'],
    [['mcp', 'add', 'a', '--env', '=v', '--', 'cmd'], 'error: environment entries must be in KEY=VALUE form\n'],
    [['mcp', 'add', 'a', '--url', 'http://x', '--env', 'A=1'], 'error: --env is only valid for stdio servers (those added with -- <command>)\n'],
    [['mcp', 'add', 'a', '--bearer-token-env-var', 'T', '--', 'cmd'], 'error: --bearer-token-env-var is only valid with --url\n'],
    [['mcp', 'add', 'a', '--oauth-client-id', 'c', '--', 'cmd'], 'error: --oauth-client-id is only valid with --url\n'],
    [['mcp', 'add', 'a', '--url', 'ftp://x'], 'error: url must be an http:// or https:// URL, got "ftp://x" (key mcp_servers.a.url)\n'],
    [['mcp', 'remove', 'bad name'], "error: invalid server name 'bad name' (use letters, numbers, '-', '_')\n"],
    [['-c', 'noequals', 'mcp', 'list'], "error: invalid -c override 'noequals': expected key=value\n"],
  ])('%j', async (args, stderr) => {
    expect(await cli(...args)).toEqual({ code: 2, stdout: '', stderr });
    await expect(stat(configPath)).rejects.toThrow('ENOENT');
  });

  it('an unknown flag before -- is a usage error', async () => {
    const r = await cli('mcp', 'add', 'a', 'npx', '-y', 'pkg');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '-y'");
    expect(r.stderr).toContain('-- <command> [args...]');
  });
});

describe('mcp add --header and mcp add-json, as claude mcp add users expect', () => {
  it('--header sends a header; "${VAR}" stays a variable and "Bearer ${VAR}" becomes bearer_token_env_var', async () => {
    const r = await cli('mcp', 'add', 'tracker', '--url', 'http://127.0.0.1:1/mcp', '--header', 'X-Api-Key: ${TRACKER_KEY}', '--header', 'X-Team:core', '--header', 'Authorization: Bearer ${TRACKER_TOKEN}');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Added global MCP server 'tracker'\.\n/);
    expect(await readFile(configPath, 'utf8')).toBe(
      [
        '[mcp_servers.tracker]',
        'url = "http://127.0.0.1:1/mcp"',
        'bearer_token_env_var = "TRACKER_TOKEN"',
        '',
        '[mcp_servers.tracker.http_headers]',
        'X-Team = "core"',
        '',
        '[mcp_servers.tracker.env_http_headers]',
        'X-Api-Key = "TRACKER_KEY"',
        '',
      ].join('\n'),
    );
  });

  it('add-json takes a server entry as .mcp.json writes it, stdio or HTTP', async () => {
    const stdio = await cli('mcp', 'add-json', 'docs', '{"command": "npx", "args": ["-y", "docs-mcp"], "env": {"DOCS_TOKEN": "${DOCS_TOKEN}", "MODE": "fast"}}');
    expect(stdio).toEqual({ code: 0, stdout: "Added global MCP server 'docs'.\n", stderr: '' });
    const http = await cli('mcp', 'add-json', 'api', '{"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"X-Key": "k-123"}}');
    expect(http.code).toBe(0);
    expect(http.stderr).toBe('warning: header X-Key holds a secret that is now stored in plain text in config.toml; consider keeping it in an environment variable (bearer_token_env_var = "VAR" for "Authorization: Bearer ...", or env_http_headers = { "X-Key" = "VAR" })\n');
    expect(await readFile(configPath, 'utf8')).toBe(
      [
        '[mcp_servers.docs]',
        'command = "npx"',
        'args = [ "-y", "docs-mcp" ]',
        'env_vars = [ "DOCS_TOKEN" ]',
        '',
        '[mcp_servers.docs.env]',
        'MODE = "fast"',
        '',
        '[mcp_servers.api]',
        'url = "http://127.0.0.1:1/mcp"',
        '',
        '[mcp_servers.api.http_headers]',
        'X-Key = "k-123"',
        '',
      ].join('\n'),
    );
  });

  it.each([
    [['mcp', 'add-json', 'x', '{"command": '], /^error: the server's JSON does not parse: /],
    [['mcp', 'add-json', 'x', '{"args": []}'], /^error: invalid server JSON: needs a command or a url\n$/],
    [['mcp', 'add-json', 'x y', '{"command": "a"}'], /^error: invalid server name 'x y'/],
    [['mcp', 'add', 'x', '--header', 'X-A: 1', '--', 'cmd'], /^error: --header is only valid with --url\n$/],
    [['mcp', 'add', 'x', '--url', 'http://127.0.0.1:1/mcp', '--header', 'no colon'], /^error: --header must be in "Name: value" form/],
  ])('%j is a usage error that writes nothing', async (args, stderr) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(stderr);
    await expect(stat(configPath)).rejects.toThrow('ENOENT');
  });
});

describe('malformed config.toml', () => {
  const BAD = '# ok so far\nmodel = "gpt-5"\n[mcp_servers.a]\ncommand = "x\n';

  it.each([
    [['mcp', 'list']],
    [['mcp', 'get', 'a']],
    [['mcp', 'add', 'b', '--', 'y']],
    [['mcp', 'remove', 'a']],
  ])('%j: one error with file:line:col, exit 2, file untouched', async (args) => {
    await writeFile(configPath, BAD);
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: ${configPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: invalid TOML: [^\\n]+\\n$`));
    expect(await readFile(configPath, 'utf8')).toBe(BAD);
  });

  it('a schema error names the key; add still works on valid TOML and leaves the bad server alone', async () => {
    const text = '[mcp_servers.a]\ncommand = "x"\nurl = "http://y"\n';
    await writeFile(configPath, text);
    expect(await cli('mcp', 'list')).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${configPath}:3:1: url is not supported for stdio (key mcp_servers.a.url)\n`,
    });
    expect((await cli('mcp', 'remove', 'a')).code).toBe(0);
    expect(await readFile(configPath, 'utf8')).toBe('');
  });

  it('--config naming a missing file is a config error for list, and creates the file for add', async () => {
    const other = path.join(home, 'sub', 'other.toml');
    expect(await cli('--config', other, 'mcp', 'list')).toEqual({ code: 2, stdout: '', stderr: `error: ${other}: config file not found\n` });
    expect((await cli('--config', other, 'mcp', 'add', 'a', '--', 'x')).code).toBe(0);
    expect(await readFile(other, 'utf8')).toBe('[mcp_servers.a]\ncommand = "x"\n');
    expect(JSON.parse((await cli('mcp', 'list', '--config', other, '--json')).stdout)).toHaveLength(1);
    await expect(stat(configPath)).rejects.toThrow('ENOENT');
  });
});

describe('-c overrides', () => {
  it('apply to list and get, never to the file', async () => {
    await writeFile(configPath, '[mcp_servers.a]\ncommand = "x"\n');
    const r = await cli('-c', 'mcp_servers.a.args=["--fast"]', '-c', 'mcp_servers.b.url=http://127.0.0.1:5/mcp', 'mcp', 'list', '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { name: string; transport: Record<string, unknown> }[];
    expect(json.map((e) => [e.name, e.transport.args ?? e.transport.url])).toEqual([
      ['a', ['--fast']],
      ['b', 'http://127.0.0.1:5/mcp'],
    ]);
    expect((await cli('mcp', 'get', 'a', '-c', 'mcp_servers.a.enabled=false')).stdout).toBe('a (disabled)\n');
    await cli('-c', 'mcp_servers.a.args=["--fast"]', 'mcp', 'add', 'c', '--', 'y');
    expect(await readFile(configPath, 'utf8')).toBe('[mcp_servers.a]\ncommand = "x"\n\n[mcp_servers.c]\ncommand = "y"\n');
  });

  it('an override that breaks the config is exit 2 naming the override and the key', async () => {
    await writeFile(configPath, '[mcp_servers.a]\ncommand = "x"\n');
    expect(await cli('-c', 'mcp_servers.a.http_headers={A="b"}', 'mcp', 'list')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: -c mcp_servers.a.http_headers={A="b"}: http_headers is not supported for stdio (key mcp_servers.a.http_headers)\n',
    });
  });
});

describe('format preservation through the CLI', () => {
  it('add and remove change only the touched table of a heavily commented file', async () => {
    const original = await readFile(path.join(FIXTURES, 'commented-config.toml'), 'utf8');
    await writeFile(configPath, original);
    await cli('mcp', 'add', 'fs', '--env', 'ROOT=/tmp', '--', 'fs-server', '--read-only');

    const anchor = 'http_headers = { "X-Toolsets" = "repos", "X-Trace" = "1" }\n';
    const at = original.indexOf(anchor) + anchor.length;
    const added = '\n[mcp_servers.fs]\ncommand = "fs-server"\nargs = [ "--read-only" ]\n\n[mcp_servers.fs.env]\nROOT = "/tmp"\n';
    expect(await readFile(configPath, 'utf8')).toBe(original.slice(0, at) + added + original.slice(at));

    await cli('mcp', 'remove', 'fs');
    expect(await readFile(configPath, 'utf8')).toBe(original);

    await cli('mcp', 'remove', 'docs');
    const docsStart = original.indexOf('[mcp_servers.docs]');
    const githubComment = original.indexOf('# GitHub, over HTTP.');
    expect(await readFile(configPath, 'utf8')).toBe(`${original.slice(0, docsStart)}\n${original.slice(githubComment)}`);
  });

  it('keeps the file mode of an existing config and follows a symlink', async () => {
    const real = path.join(home, 'dotfiles-config.toml');
    await writeFile(real, 'model = "o3"\n');
    await chmod(real, 0o640);
    await symlink(real, configPath);
    expect((await cli('mcp', 'add', 'a', '--', 'x')).code).toBe(0);
    expect((await lstat(configPath)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, 'utf8')).toBe('model = "o3"\n\n[mcp_servers.a]\ncommand = "x"\n');
    expect((await stat(real)).mode & 0o777).toBe(0o640);
  });

  it('creates a new config readable only by its owner', async () => {
    await cli('mcp', 'add', 'a', '--env', 'TOKEN=secret', '--', 'x');
    expect((await stat(configPath)).mode & 0o777).toBe(0o600);
  });
});

describe('an existing Codex config.toml', () => {
  it('lists its servers without errors or warnings', async () => {
    await copyFile(path.join(FIXTURES, 'codex-config.toml'), configPath);
    const r = await cli('mcp', 'list');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Name       Command                Args                           Env                                                                                     Cwd            Status    Auth',
        'docs       npx                    -y @acme/docs-mcp --port 4000  DOCS_API_KEY=*****, LOG_LEVEL=*****, HOME=*****, DOCS_REGION=*****, REMOTE_TOKEN=*****  /Users/me/src  enabled   Unsupported',
        'legacy_fs  mcp-server-filesystem  /tmp                           -                                                                                       -              disabled  Unsupported',
        '',
        'Name    Url                                 Bearer Token Env Var  Status   Auth',
        'github  https://api.githubcopilot.com/mcp/  GITHUB_PAT            enabled  Bearer token',
        'linear  https://mcp.linear.app/mcp          -                     enabled  Not logged in',
        '',
      ].join('\n'),
    );
  });
});

describe('help', () => {
  it.each([['list'], ['get'], ['add'], ['remove'], ['import']])('mcp %s --help explains itself with an example', async (sub) => {
    const r = await cli('mcp', sub, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: switchboard mcp /);
    expect(r.stdout).toMatch(/Examples?:\n {2}switchboard mcp /);
  });
});
