// `switchboard serve --tool-search` as a real process (the built CLI) over stdio, with an SDK
// client in front and the real server-everything and server-filesystem behind (filesystem pinned with
// always_loaded): two tools plus the pinned ones, a search that names a tool exactly, a call through
// call_tool; and the flag refused with --transparent.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { BIN } from '../support/mcp-server-harness.js';
import { removeTree, tempDir } from '../support/temp.js';
import { textOf } from './gateway-harness.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const q = JSON.stringify;
const CALL = { timeout: 60_000 };

let home: string;
let work: string;
beforeAll(async () => {
  home = await tempDir('sb-serve-ts-');
  work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(
    path.join(home, 'config.toml'),
    [
      '[mcp_servers.everything]',
      `command = ${q(process.execPath)}`,
      `args = [${q(EVERYTHING)}, "stdio"]`,
      '[mcp_servers.filesystem]',
      `command = ${q(process.execPath)}`,
      `args = [${q(FILESYSTEM)}, ${q(work)}]`,
      'always_loaded = true',
      '',
    ].join('\n'),
  );
});
afterAll(async () => removeTree(home));

describe('switchboard serve --tool-search', () => {
  it('serves search_tools, call_tool and the always_loaded tools to an SDK client', async () => {
    const client = new Client({ name: 'tool-search-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--tool-search'], env: { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_HOME: home }, cwd: work, stderr: 'ignore' }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names.slice(0, 2)).toEqual(['search_tools', 'call_tool']);
      expect(names).toContain('mcp__filesystem__read_text_file');
      expect(names.filter((n) => n.startsWith('mcp__everything__'))).toEqual([]);

      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'get-tiny-image', limit: 3 } }, CALL);
      const tools = (found.structuredContent as { tools: { name: string; inputSchema: object }[] }).tools;
      expect(tools[0]!.name).toBe('mcp__everything__get-tiny-image');
      expect((await client.callTool({ name: 'search_tools', arguments: { query: 'sum of two numbers' } }, CALL)).structuredContent).toMatchObject({
        tools: expect.arrayContaining([expect.objectContaining({ name: 'mcp__everything__get-sum' })]),
      });

      const echoed = await client.callTool({ name: 'call_tool', arguments: { name: 'mcp__everything__echo', arguments: { message: 'through call_tool' } } }, CALL);
      expect(echoed.isError).not.toBe(true);
      expect(textOf(echoed)).toContain('through call_tool');
      const bad = await client.callTool({ name: 'call_tool', arguments: { name: 'mcp__everything__echo', arguments: {} } }, CALL);
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^Invalid arguments for tool mcp__everything__echo: .*message/);
    } finally {
      await client.close();
    }
  });

  it('refuses --tool-search with --transparent', async () => {
    const one = await tempDir('sb-serve-ts1-');
    try {
      await writeFile(path.join(one, 'config.toml'), `[mcp_servers.only]\ncommand = ${q(process.execPath)}\nargs = [${q(EVERYTHING)}, "stdio"]\n`);
      const r = await runCli(['serve', '--tool-search', '--transparent'], { home: one });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--tool-search cannot be combined with --transparent');
    } finally {
      await removeTree(one);
    }
  });
});
