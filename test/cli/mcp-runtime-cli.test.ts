// `switchboard mcp status | tools | call | resources | prompts` against real servers: the manager
// fixture and @modelcontextprotocol/server-everything over stdio.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { MANAGER_FIXTURE } from '../mcp/manager-harness.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const q = JSON.stringify;

let home: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  await writeFile(
    path.join(home, 'config.toml'),
    [
      '[mcp_servers.everything]',
      `command = ${q(process.execPath)}`,
      `args = [${q(EVERYTHING)}, "stdio"]`,
      '',
      '[mcp_servers.fix]',
      `command = ${q(process.execPath)}`,
      `args = [${q(MANAGER_FIXTURE)}]`,
      'env = { MGR_NAME = "fix", MGR_TOOLS = "echo,search" }',
      'disabled_tools = ["crash"]',
      '',
      '[mcp_servers.broken]',
      'command = "/nonexistent/mcp-server"',
      '',
      '[mcp_servers.off]',
      'command = "x"',
      'enabled = false',
      '',
    ].join('\n'),
  );
});
afterAll(async () => cleanup());

describe('mcp status', () => {
  it('connects to every enabled server and reports each one', async () => {
    const r = await runCli(['mcp', 'status', '--json'], { home });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const by = Object.fromEntries(out.servers.map((s: { name: string }) => [s.name, s]));
    // Both speak 2025 only (server-everything is built on SDK v1): the probe fell back to initialize.
    expect(by.everything).toMatchObject({ state: 'ready', source: 'live', protocol: '2025-11-25' });
    expect(by.everything.tools).toBeGreaterThan(10);
    expect(by.fix).toMatchObject({ state: 'ready', tools: 3, source: 'live', protocol: '2025-11-25' });
    expect(by.broken).toMatchObject({ state: 'failed', tools: 0, error: expect.stringContaining('MCP client for `broken` failed to start') });
    expect(by.off).toEqual({ name: 'off', state: 'disabled', tools: 0, source: 'none', protocol: null });
    expect(by.broken.protocol).toBeNull();
    expect(out.ready.sort()).toEqual(['everything', 'fix']);
    expect(out.failed).toEqual([{ server: 'broken', error: by.broken.error }]);
    expect(typeof by.fix.startup_ms).toBe('number');
  });

  it('prints a table and exits 1 when a required server failed', async () => {
    const r = await runCli(['mcp', 'status', '-c', 'mcp_servers.broken.required=true'], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Name\s+State\s+Tools\s+Startup\s+Source\s+Protocol\s+Error\n/);
    expect(r.stdout).toMatch(/\nfix\s+ready\s+3\s+\d+ ms\s+live\s+2025-11-25\s+-\n/);
    expect(r.stdout).toContain('2 ready, 1 failed, 1 disabled');
  });
});

describe('mcp tools', () => {
  it('lists the aggregated catalog as JSON, and answers from snapshots with --no-wait', async () => {
    const r = await runCli(['mcp', 'tools', '--json'], { home });
    // The catalog lacks the server that failed to start: stderr says which and why, and the exit code is 1.
    expect(r.stderr).toMatch(/^error: no tools from 'broken': MCP client for `broken` failed to start: MCP startup failed: program `\/nonexistent\/mcp-server` not found \(spawn ENOENT\); check the server's `command`/m);
    expect(r.stderr.match(/^error: /gm)).toHaveLength(1);
    expect(r.code).toBe(1);
    const tools = JSON.parse(r.stdout) as { name: string; server: string; tool: string; source: string; inputSchema: unknown }[];
    expect(tools.find((t) => t.name === 'mcp__fix__search')).toMatchObject({ server: 'fix', tool: 'search', source: 'live', inputSchema: { type: 'object' } });
    expect(tools.some((t) => t.name === 'mcp__fix__crash')).toBe(false);
    expect(tools.some((t) => t.name === 'mcp__everything__echo')).toBe(true);
    const fast = await runCli(['mcp', 'tools', '--json', '--no-wait'], { home });
    // Nothing was started, so nothing failed.
    expect([fast.code, fast.stderr]).toEqual([0, '']);
    const snap = JSON.parse(fast.stdout) as { name: string; source: string }[];
    expect(snap.find((t) => t.name === 'mcp__fix__search')?.source).toBe('snapshot');
    expect(snap.length).toBe(tools.length);
  });
});

describe('mcp call', () => {
  it('calls by model-visible name and prints the result', async () => {
    const r = await runCli(['mcp', 'call', 'mcp__fix__echo', '--args', '{"text":"hello"}'], { home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ content: [{ type: 'text', text: 'fix:echo:hello' }] });
    const everything = await runCli(['mcp', 'call', 'mcp__everything__echo', '--args', '{"message":"hi"}'], { home });
    expect(JSON.parse(everything.stdout).content[0].text).toBe('Echo: hi');
  });

  it('exits 2 for bad JSON and unknown tools (naming close ones), 1 for isError results', async () => {
    expect((await runCli(['mcp', 'call', 'mcp__fix__echo', '--args', '{nope'], { home })).code).toBe(2);
    expect((await runCli(['mcp', 'call', 'mcp__fix__echo', '--args', '[1]'], { home })).code).toBe(2);
    const unknown = await runCli(['mcp', 'call', 'mcp__fix__serch'], { home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown tool 'mcp__fix__serch'; did you mean mcp__fix__search");
    const bad = await runCli(['mcp', 'call', 'mcp__everything__get-sum', '--args', '{"a":"x"}'], { home });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).isError).toBe(true);
  });
});

describe('mcp resources and prompts', () => {
  it('aggregates resources and prompts with attribution', async () => {
    const r = await runCli(['mcp', 'resources', '--json'], { home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: no resources from 'broken': ");
    const out = JSON.parse(r.stdout);
    expect(out.resources.length).toBeGreaterThan(0);
    expect(out.resources.every((x: { server: string }) => x.server === 'everything')).toBe(true);
    const p = await runCli(['mcp', 'prompts', '--json'], { home });
    expect(p.stderr).toContain("error: no prompts from 'broken': ");
    const healthy = await runCli(['mcp', 'prompts', '--json', '-c', 'mcp_servers.broken.enabled=false'], { home });
    expect([healthy.code, healthy.stderr]).toEqual([0, '']);
    const prompts = JSON.parse(p.stdout) as { name: string; server: string }[];
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.every((x) => x.server === 'everything' && x.name.startsWith('everything__'))).toBe(true);
  });
});
