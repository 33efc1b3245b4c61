// The built `switchboard` binary as real processes: an existing Codex config, malformed input, exit
// codes, format preservation, and concurrent `mcp add`s from several processes.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, runCliProcess } from '../support/cli.js';
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

const sb = (...args: string[]) => runCliProcess(args, { home });

// Each child is a fresh Node process; on a loaded machine a start can take seconds.
describe('switchboard (child process)', { timeout: 120_000 }, () => {
  it('--config <existing Codex config.toml> mcp list shows its servers with exit 0 and no warnings', async () => {
    await copyFile(path.join(FIXTURES, 'codex-config.toml'), path.join(home, 'codex-config.toml'));
    const r = await sb('--config', path.join(home, 'codex-config.toml'), 'mcp', 'list', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { name: string; enabled: boolean; auth_status: string; transport: { type: string } }[];
    expect(list.map((e) => [e.name, e.transport.type, e.enabled, e.auth_status])).toEqual([
      ['docs', 'stdio', true, 'unsupported'],
      ['github', 'streamable_http', true, 'bearer_token'],
      ['legacy_fs', 'stdio', false, 'unsupported'],
      ['linear', 'streamable_http', true, 'not_logged_in'],
    ]);
  });

  it('a malformed config.toml: one error with file:line:col, exit 2, file untouched', async () => {
    const bad = '# comment\n[mcp_servers.a]\ncommand = "x"\nargs = ["unterminated\n';
    await writeFile(configPath, bad);
    for (const args of [['mcp', 'list'], ['mcp', 'add', 'b', '--', 'y'], ['mcp', 'remove', 'a']]) {
      const r = await sb(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toMatch(new RegExp(`^error: ${configPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: invalid TOML: `));
    }
    expect(await readFile(configPath, 'utf8')).toBe(bad);
  });

  it('exit codes: 0 ok, 1 not found, 2 usage', async () => {
    expect((await sb('mcp', 'add', 'a', '--', 'x')).code).toBe(0);
    expect((await sb('mcp', 'get', 'missing')).code).toBe(1);
    expect((await sb('mcp', 'remove', 'missing')).code).toBe(1);
    expect((await sb('mcp', 'add', 'no good', '--', 'x')).code).toBe(2);
    expect((await sb('mcp', 'list', '--no-such-flag')).code).toBe(2);
    expect((await sb('mcp', 'remove', 'a')).code).toBe(0);
  });

  it('add then remove leaves a heavily commented file byte for byte as it was', async () => {
    const original = await readFile(path.join(FIXTURES, 'commented-config.toml'), 'utf8');
    await writeFile(configPath, original);
    expect((await sb('mcp', 'add', 'remote', '--url', 'https://mcp.example.com/mcp', '--bearer-token-env-var', 'TOKEN')).code).toBe(0);
    const after = await readFile(configPath, 'utf8');
    expect(after).not.toBe(original);
    expect(parseToml(after).mcp_servers).toMatchObject({ remote: { url: 'https://mcp.example.com/mcp', bearer_token_env_var: 'TOKEN' } });
    expect((await sb('mcp', 'remove', 'remote')).code).toBe(0);
    expect(await readFile(configPath, 'utf8')).toBe(original);
  });

  it('concurrent adds of different servers from several processes all survive', async () => {
    const header = '# shared config\nmodel = "gpt-5"\n';
    await writeFile(configPath, header);
    const names = ['alpha', 'bravo', 'charlie', 'delta'];
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(names.map((n) => sb('mcp', 'add', `${n}${round}`, '--env', `ROUND=${round}`, '--', `${n}-server`, '--flag')));
      for (const r of results) expect(r).toMatchObject({ code: 0, stderr: '' });
    }
    const text = await readFile(configPath, 'utf8');
    expect(text.startsWith(header)).toBe(true);
    const servers = parseToml(text).mcp_servers as Record<string, { command: string; env: { ROUND: string } }>;
    expect(Object.keys(servers).sort()).toEqual(names.flatMap((n) => [`${n}0`, `${n}1`]).sort());
    for (const [name, s] of Object.entries(servers)) {
      expect(s.command).toBe(`${name.slice(0, -1)}-server`);
      expect(s.env.ROUND).toBe(name.slice(-1));
    }
    const list = await sb('mcp', 'list', '--json');
    expect(JSON.parse(list.stdout)).toHaveLength(8);
  }, 180_000);

  it('mcp import in a child process', async () => {
    const json = path.join(home, '.mcp.json');
    await writeFile(json, '{"mcpServers": {"docs": {"command": "docs-mcp"}, "api": {"type": "sse", "url": "http://127.0.0.1:4/sse"}}}');
    const r = await sb('mcp', 'import', json);
    expect(r).toEqual({ code: 0, stdout: "Added global MCP server 'docs'.\nAdded global MCP server 'api'.\n", stderr: '' });
    const list = JSON.parse((await sb('mcp', 'list', '--json')).stdout) as { name: string; transport: { type: string } }[];
    expect(list.map((e) => [e.name, e.transport.type])).toEqual([
      ['api', 'sse'],
      ['docs', 'stdio'],
    ]);
  });
});
