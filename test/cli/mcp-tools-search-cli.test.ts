// `switchboard mcp tools --search` over real servers (server-everything, server-filesystem), and
// `-c tool_search=...` reaching the agent's first model request through `exec`.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const q = JSON.stringify;

let home: string;
let cleanup: () => Promise<void>;
let model: FakeModelServer;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  model = await startFakeModelServer();
  const root = path.join(home, 'files');
  await mkdir(root);
  await writeFile(
    path.join(home, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      `base_url = ${q(model.url)}`,
      'env_key = "MOCK_KEY"',
      'request_max_retries = 0',
      '',
      '[mcp_servers.everything]',
      `command = ${q(process.execPath)}`,
      `args = [${q(EVERYTHING)}, "stdio"]`,
      '',
      '[mcp_servers.filesystem]',
      `command = ${q(process.execPath)}`,
      `args = [${q(FILESYSTEM)}, ${q(root)}]`,
      'always_loaded = true',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await model.close();
  await cleanup();
});

interface Row {
  rank: number;
  name: string;
  score: number;
  match: string;
  always_loaded: boolean;
  inputSchema: Record<string, unknown>;
}

describe('mcp tools --search', () => {
  it('ranks an exact name first and prints scores as JSON', async () => {
    const r = await runCli(['mcp', 'tools', '--search', 'get-tiny-image', '--json'], { home });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows[0]).toMatchObject({ rank: 1, name: 'mcp__everything__get-tiny-image', match: 'exact', always_loaded: false });
    expect(rows.length).toBeLessThanOrEqual(8);
    expect(rows.every((row, i) => i === 0 || row.score <= rows[i - 1]!.score)).toBe(true);
  });

  it('shows a ranked table with --limit, marking always_loaded servers', async () => {
    const r = await runCli(['mcp', 'tools', '--search', 'list the files in a directory', '--limit', '3'], { home });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ #\s+score\s+tool\s+description$/);
    expect(lines.slice(1).some((l) => /^ \d\s+\d+\.\d{3}\s+mcp__filesystem__list_directory\s.*\(always loaded\)$/.test(l))).toBe(true);
  });

  it('refuses a bad --limit, and --limit without --search', async () => {
    expect((await runCli(['mcp', 'tools', '--search', 'x', '--limit', '0'], { home })).code).toBe(2);
    const alone = await runCli(['mcp', 'tools', '--limit', '3'], { home });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--limit goes with --search');
  });
});

describe('-c tool_search', () => {
  const toolsOfRun = async (value: string): Promise<string[]> => {
    const before = model.requests.length;
    model.enqueue(responsesTurn({ text: 'ok' }));
    const r = await runCli(['-c', `tool_search=${value}`, 'exec', '--json', 'hi'], { home, env: { MOCK_KEY: 'k' } });
    expect(r.code, r.stderr).toBe(0);
    return (model.requests[before]!.body.tools as { name: string }[]).map((t) => t.name);
  };

  it('on: the first request carries tool_search and the always_loaded server, not the rest', async () => {
    const names = await toolsOfRun('on');
    expect(names).toContain('tool_search');
    expect(names).toContain('mcp__filesystem__read_text_file');
    expect(names.filter((n) => n.startsWith('mcp__everything__'))).toEqual([]);
  });

  it('off: every tool, as before', async () => {
    const names = await toolsOfRun('off');
    expect(names).not.toContain('tool_search');
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__filesystem__read_text_file']));
  });

  it('an unknown value is a config error', async () => {
    const r = await runCli(['-c', 'tool_search=sometimes', 'exec', 'hi'], { home, env: { MOCK_KEY: 'k' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tool_search must be "auto", "on" or "off"');
  });
});
