// `switchboard mcp import <file> [--dry-run]` in-process: preview, import, clashes, bad input.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';

let home: string;
let cleanup: () => Promise<void>;
let configPath: string;
let jsonPath: string;

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  configPath = path.join(home, 'config.toml');
  jsonPath = path.join(home, 'claude_desktop_config.json');
});
afterEach(async () => {
  await cleanup();
});

const cli = (...args: string[]) => runCli(args, { home });

const CLAUDE = {
  mcpServers: {
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
    github: { command: 'docker', args: ['run', '-i', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret' } },
    'remote api': { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer sk-live-123' } },
  },
};

describe('mcp import', () => {
  it('previews with --dry-run (secrets masked, nothing written), then imports, then reports clashes', async () => {
    await writeFile(jsonPath, JSON.stringify(CLAUDE, null, 2));
    await writeFile(configPath, '# keep me\n[mcp_servers.github]\ncommand = "gh-mcp"\n');

    const dry = await cli('mcp', 'import', jsonPath, '--dry-run');
    expect(dry.stdout).toBe(
      [
        `Dry run: would add 2 MCP servers to ${configPath}:`,
        '  Name        Transport        Command / Url                                        Env / Headers',
        '  filesystem  stdio            npx -y @modelcontextprotocol/server-filesystem /tmp  -',
        '  remote_api  streamable_http  https://mcp.example.com/mcp                          Authorization=*****',
        '',
      ].join('\n'),
    );
    expect(dry.stderr).toBe(
      [
        "warning: 'remote api': name 'remote api' is not a valid server name here; imported as 'remote_api'",
        "warning: 'remote api': header Authorization holds a secret that is now stored in plain text in config.toml; consider keeping it in an environment variable (bearer_token_env_var = \"VAR\" for \"Authorization: Bearer ...\", or env_http_headers = { \"Authorization\" = \"VAR\" })",
        `skipped 'github': an MCP server named 'github' already exists in ${configPath} (not overwritten)`,
        '',
      ].join('\n'),
    );
    expect(dry.code).toBe(1);
    expect(dry.stdout + dry.stderr).not.toContain('sk-live-123');
    expect(await readFile(configPath, 'utf8')).toBe('# keep me\n[mcp_servers.github]\ncommand = "gh-mcp"\n');

    const real = await cli('mcp', 'import', jsonPath);
    expect(real.code).toBe(1);
    expect(real.stdout).toBe("Added global MCP server 'filesystem'.\nAdded global MCP server 'remote_api'.\n");
    expect(real.stderr).toContain("skipped 'github': an MCP server named 'github' already exists");
    expect(await readFile(configPath, 'utf8')).toBe(
      [
        '# keep me',
        '[mcp_servers.github]',
        'command = "gh-mcp"',
        '',
        '[mcp_servers.filesystem]',
        'command = "npx"',
        'args = [ "-y", "@modelcontextprotocol/server-filesystem", "/tmp" ]',
        '',
        '[mcp_servers.remote_api]',
        'url = "https://mcp.example.com/mcp"',
        '',
        '[mcp_servers.remote_api.http_headers]',
        'Authorization = "Bearer sk-live-123"',
        '',
      ].join('\n'),
    );
    const list = JSON.parse((await cli('mcp', 'list', '--json')).stdout) as { name: string; auth_status: string }[];
    expect(list.map((e) => [e.name, e.auth_status])).toEqual([
      ['filesystem', 'unsupported'],
      ['github', 'unsupported'],
      ['remote_api', 'bearer_token'],
    ]);

    const again = await cli('mcp', 'import', jsonPath);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe(`No new MCP servers imported from ${jsonPath}.\n`);
    expect(again.stderr.match(/^skipped /gm)).toHaveLength(3);
  });

  it('imports everything with exit 0 when nothing clashes, relative to the working directory', async () => {
    await writeFile(path.join(home, '.mcp.json'), '{"mcpServers": {"a": {"command": "x", "env": {"TOKEN": "${TOKEN}"}}, "b": {"url": "http://127.0.0.1:7/mcp"}}}');
    const r = await runCli(['mcp', 'import', '.mcp.json'], { home, cwd: home });
    expect(r).toEqual({ code: 0, stdout: "Added global MCP server 'a'.\nAdded global MCP server 'b'.\n", stderr: '' });
    expect(await readFile(configPath, 'utf8')).toBe(
      '[mcp_servers.a]\ncommand = "x"\nenv_vars = [ "TOKEN" ]\n\n[mcp_servers.b]\nurl = "http://127.0.0.1:7/mcp"\n',
    );
  });

  it('dry run with nothing to add says so', async () => {
    await writeFile(jsonPath, '{"servers": {}}');
    expect(await cli('mcp', 'import', jsonPath, '--dry-run')).toEqual({ code: 0, stdout: `Dry run: no new MCP servers to add to ${configPath}.\n`, stderr: '' });
  });

  it.each([
    ['{"mcpServers": {"a": {"command": "x"},}', /^error: .*claude_desktop_config\.json:1:\d+: invalid JSON: /],
    ['{"mcpServers": {"a": {"command": "x"}}', /^error: .*claude_desktop_config\.json:1:\d+: invalid JSON: /],
    ['{"mcpServers": [1]}', /^error: .*claude_desktop_config\.json: no "mcpServers" \(Claude, Cursor\) or "servers" \(VS Code\) object found\n$/],
  ])('bad JSON %j is exit 2, nothing written', async (text, stderr) => {
    await writeFile(jsonPath, text);
    const r = await cli('mcp', 'import', jsonPath);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(stderr);
    await expect(stat(configPath)).rejects.toThrow('ENOENT');
  });

  it('a missing file is exit 2', async () => {
    const r = await cli('mcp', 'import', path.join(home, 'nope.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot read .*nope\.json: ENOENT/);
  });

  it('a malformed config.toml is exit 2 and stays untouched', async () => {
    await writeFile(jsonPath, JSON.stringify(CLAUDE));
    await writeFile(configPath, 'model = \n');
    for (const args of [['mcp', 'import', jsonPath], ['mcp', 'import', jsonPath, '--dry-run']]) {
      const r = await cli(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^error: ${configPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:\\d+: invalid TOML[^\\n]*\\n$`));
    }
    expect(await readFile(configPath, 'utf8')).toBe('model = \n');
  });
});
