// disabled_tools holds on every road to an upstream, task-augmented calls included: through
// `switchboard serve --transparent` (the built CLI) in front of a real upstream that offers tasks
// (test/fixtures/task-upstream.mjs), a disabled tool is refused as a plain call, as a 2025-11-25
// task-augmented call and as a 2026-07-28 tasks-extension call, and the upstream never runs it.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { requireBuild } from '../support/mcp-server-harness.js';
import { post2026 } from '../support/raw-2026.js';
import { removeTree, tempDir } from '../support/temp.js';
import { textOf } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');
const Loose = z.looseObject({});
const REFUSAL = "tool 'work' is disabled for MCP server 't'";
const WITH_TASKS = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };

describe('serve --transparent: disabled_tools on every road', () => {
  let serve: ServeProcess;
  let home: string;
  let client: Client;

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-filter-tasks-');
    await mkdir(path.join(home, 'work'));
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.t]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TASK_FIXTURE)}]\ndisabled_tools = ["work"]\n`);
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth', '--transparent'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: path.join(home, 'work') });
    client = new Client({ name: 'filter-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await serve?.stop();
    if (home) await removeTree(home);
  });

  const upstreamTasks = async () => (await client.request({ method: 'tasks/list', params: {} }, Loose)).tasks as unknown[];

  it('refuses a plain call (2025-11-25)', async () => {
    const result = await client.callTool({ name: 'work', arguments: { label: 'plain' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(REFUSAL);
  });

  it('refuses a task-augmented call (2025-11-25): no task is created upstream', async () => {
    const answer = await client.request({ method: 'tools/call', params: { name: 'work', arguments: { label: 'tasked' }, task: { ttl: 60_000 } } }, Loose);
    expect(answer.task).toBeUndefined();
    expect(answer).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining(REFUSAL) }] });
    expect(await upstreamTasks()).toEqual([]);
  });

  it('refuses a tasks-extension call (2026-07-28)', async () => {
    const { answer } = await post2026(serve.url, { id: 7, method: 'tools/call', params: { name: 'work', arguments: { label: 'modern' } }, name: 'work', meta: WITH_TASKS });
    expect(answer.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining(REFUSAL) }] });
    expect(answer.result?.resultType).not.toBe('task');
    // The tool allowed beside it still runs.
    const plain = await client.callTool({ name: 'plain', arguments: { text: 'hi' } });
    expect(plain.isError).toBeFalsy();
  });
});
