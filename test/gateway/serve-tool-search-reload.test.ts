// `switchboard serve --tool-search` (the built CLI over stdio, chaos-server upstreams) given a changed
// config.toml: the servers pinned with always_loaded follow the file without a restart (same
// processes), the client is told its tools/list changed, and a removed server's tools leave the search.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeWithConfig, saveAsEditor } from '../support/config-save.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { killProcessesByMarker } from '../support/process-tree.js';
import { removeTree } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { textOf } from './gateway-harness.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const CHAOS = fixtureProgram('chaos-server.ts');
const CALL = { timeout: 60_000 };
const q = JSON.stringify;

describe('switchboard serve --tool-search: config.toml changes', () => {
  const marker = `ts-reload-${process.pid}-${Date.now()}`;
  let home: string;
  let file: string;
  let client: Client;
  let listChanged = 0;
  const server = (name: string, pinned: boolean) =>
    `[mcp_servers.${name}]\ncommand = ${q(process.execPath)}\nargs = [${q(CHAOS)}, "--process-tools", "--marker", ${q(marker)}]\nalways_loaded = ${pinned}\n`;
  const save = (text: string) => saveAsEditor(file, text);
  const listed = async () => (await client.listTools(undefined, CALL)).tools.map((t) => t.name);
  const pidOf = async (s: string) =>
    (JSON.parse(textOf(await client.callTool({ name: 'call_tool', arguments: { name: `mcp__${s}__whoami`, arguments: {} } }, CALL))) as { pid: number }).pid;
  const found = async (query: string) =>
    ((await client.callTool({ name: 'search_tools', arguments: { query, limit: 50 } }, CALL)).structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);

  beforeAll(async () => {
    requireBuild();
    let work: string;
    ({ home, file, work } = await homeWithConfig('sb-ts-reload-', server('pinned', true) + server('searched', false)));
    client = new Client({ name: 'ts-reload', version: '1.0.0' });
    client.setNotificationHandler('notifications/tools/list_changed', () => void listChanged++);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--tool-search'], env: { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_HOME: home }, cwd: work, stderr: 'ignore' }),
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close().catch(() => {});
    await killProcessesByMarker(marker);
    if (home) await removeTree(home);
  });

  it('follows always_loaded in place and drops a removed server from the search', async () => {
    const before = await listed();
    expect(before.slice(0, 2)).toEqual(['search_tools', 'call_tool']);
    expect(before).toContain('mcp__pinned__echo');
    expect(before.filter((n) => n.startsWith('mcp__searched__'))).toEqual([]);
    const pids = { pinned: await pidOf('pinned'), searched: await pidOf('searched') };

    const heard = listChanged;
    await save(server('pinned', false) + server('searched', true));
    await waitFor(async () => (await listed()).includes('mcp__searched__echo'), 'the newly pinned server to be listed', 20_000);
    expect((await listed()).filter((n) => n.startsWith('mcp__pinned__'))).toEqual([]);
    await waitFor(() => listChanged > heard, 'tools/list_changed', 20_000);
    // always_loaded applies in place: the same processes.
    expect(await pidOf('pinned')).toBe(pids.pinned);
    expect(await pidOf('searched')).toBe(pids.searched);
    expect(await found('whoami')).toContain('mcp__pinned__whoami');

    await save(server('searched', true));
    await waitFor(async () => !(await found('whoami')).includes('mcp__pinned__whoami'), 'the removed server to leave the search', 20_000);
    expect(await found('whoami')).toEqual([]);
    expect(await listed()).toContain('mcp__searched__whoami');
  }, 90_000);
});
