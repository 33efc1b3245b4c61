// Tasks (2025-11-25) through `switchboard serve --http` (the built CLI) with SDK v2 clients, in front
// of a real upstream that offers tasks (test/fixtures/task-upstream.mjs, SDK v1's tasks runtime): a
// task-augmented call returns a task under the gateway's own id, its status notifications reach the
// client that created it, tasks/get and tasks/result answer it; tasks/cancel stops it upstream; another
// client can neither see nor touch it; a client that leaves has its running tasks cancelled. And the
// reference server's task tool (server-everything's simulate-research-query) through a transparent gateway.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { requireBuild } from '../support/mcp-server-harness.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { textOf } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const Loose = z.looseObject({});
type Loose = z.infer<typeof Loose>;
const RELATED = 'io.modelcontextprotocol/related-task';

interface TaskClient {
  client: Client;
  statuses: Loose[];
  call(args: Record<string, unknown>): Promise<Loose>;
  ask(method: string, taskId: unknown): Promise<Loose>;
}

describe('switchboard serve --http: tasks passed through to an upstream that offers them', () => {
  let serve: ServeProcess;
  let home: string;
  const open: Client[] = [];

  async function connect(name: string): Promise<TaskClient> {
    const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
    const statuses: Loose[] = [];
    client.setNotificationHandler('notifications/tasks/status', { params: Loose }, (params) => void statuses.push(params));
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    open.push(client);
    return {
      client,
      statuses,
      call: (args) => client.request({ method: 'tools/call', params: { name: 'mcp__tasks__work', arguments: args, task: { ttl: 60_000 } } }, Loose, { timeout: 30_000 }),
      ask: (method, taskId) => client.request({ method, params: { taskId } } as never, Loose, { timeout: 30_000 }),
    };
  }
  const taskOf = (created: Loose) => created.task as { taskId: string; status: string };
  const plain = (c: TaskClient, name: string) => c.client.callTool({ name, arguments: {} }, { timeout: 30_000 }).then(textOf);

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-tasks-');
    const work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.tasks]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TASK_FIXTURE)}]\n`);
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: work });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => {})));
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it('declares tasks and lists the tool with its task support', async () => {
    const a = await connect('declares');
    expect(a.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await a.client.listTools();
    expect(tools.find((t) => t.name === 'mcp__tasks__work')?.execution).toEqual({ taskSupport: 'optional' });
  }, 60_000);

  it("runs a call as a task: the gateway's task id, status notifications to its client, tasks/get and tasks/result", async () => {
    const a = await connect('runner');
    const created = await a.call({ label: 'first', steps: 3, stepMs: 100 });
    const { taskId, status } = taskOf(created);
    expect(status).toBe('working');
    // The gateway's own id (opaque: it names no upstream id and no replica).
    expect(taskId).toMatch(/^t2\.[A-Za-z0-9_-]+$/);
    const got = await a.ask('tasks/get', taskId);
    expect(got.taskId).toBe(taskId);
    const result = await a.ask('tasks/result', taskId);
    expect(textOf(result as never)).toBe('done first');
    expect((result._meta as Record<string, unknown>)[RELATED]).toEqual({ taskId });
    expect((await a.ask('tasks/get', taskId)).status).toBe('completed');
    await waitFor(() => a.statuses.some((s) => s.status === 'completed'), 'the completed status notification');
    expect(a.statuses.every((s) => s.taskId === taskId)).toBe(true);
    expect(a.statuses.map((s) => s.statusMessage)).toEqual(expect.arrayContaining(['step 1 of 3', 'step 2 of 3', 'step 3 of 3']));
  }, 60_000);

  it('cancels a task upstream with tasks/cancel', async () => {
    const a = await connect('canceller');
    const before = JSON.parse(await plain(a, 'mcp__tasks__cancelled')) as { cancelled: number };
    const { taskId } = taskOf(await a.call({ label: 'long', steps: 100, stepMs: 50 }));
    const cancelled = await a.ask('tasks/cancel', taskId);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    expect((await a.ask('tasks/get', taskId)).status).toBe('cancelled');
    await waitFor(async () => (JSON.parse(await plain(a, 'mcp__tasks__cancelled')) as { cancelled: number }).cancelled === before.cancelled + 1, 'the upstream task stopped');
  }, 60_000);

  it("keeps each client's tasks to itself: another client can neither list, read, wait on nor cancel them", async () => {
    const [a, b] = await Promise.all([connect('owner'), connect('other')]);
    const { taskId } = taskOf(await a.call({ label: 'mine', steps: 20, stepMs: 50 }));
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const err = await b.ask(method, taskId).catch((e: unknown) => e);
      expect(err, method).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).message).toContain(`Task not found: ${taskId}`);
    }
    expect((await b.ask('tasks/get', 'no-such-task').catch((e: unknown) => e) as ProtocolError).message).toContain('Task not found: no-such-task');
    expect((await b.client.request({ method: 'tasks/list', params: {} } as never, Loose)).tasks).toEqual([]);
    const mine = (await a.client.request({ method: 'tasks/list', params: {} } as never, Loose)).tasks as Loose[];
    expect(mine.map((t) => t.taskId)).toEqual([taskId]);
    expect(textOf((await a.ask('tasks/result', taskId)) as never)).toBe('done mine');
    expect(b.statuses).toEqual([]);
  }, 60_000);

  it("cancels the running tasks of a client that leaves (no one can fetch them any more)", async () => {
    const watcher = await connect('watcher');
    const before = JSON.parse(await plain(watcher, 'mcp__tasks__cancelled')) as { cancelled: number };
    const leaving = await connect('leaving');
    await leaving.call({ label: 'orphan', steps: 200, stepMs: 50 });
    await (leaving.client.transport as StreamableHTTPClientTransport).terminateSession();
    await leaving.client.close();
    await waitFor(async () => (JSON.parse(await plain(watcher, 'mcp__tasks__cancelled')) as { cancelled: number }).cancelled === before.cancelled + 1, 'the orphaned task cancelled upstream', 15_000);
  }, 60_000);
});

describe('switchboard serve --http --transparent: server-everything runs a research query as a task', () => {
  it('creates the task under the gateway id, reports its stages, and gives the report', async () => {
    requireBuild();
    const home = await tempDir('sb-serve-tasks-everything-');
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`);
    const serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth', '--transparent'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: home });
    const client = new Client({ name: 'research', version: '1.0.0' }, { capabilities: {} });
    try {
      const statuses: Loose[] = [];
      client.setNotificationHandler('notifications/tasks/status', { params: Loose }, (params) => void statuses.push(params));
      await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'simulate-research-query')?.execution).toEqual({ taskSupport: 'required' });
      const created = await client.request({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'gateways' }, task: { ttl: 60_000 } } }, Loose, { timeout: 30_000 });
      const { taskId } = created.task as { taskId: string };
      // The reference server's ids are 32 hex digits; the client sees the gateway's own.
      expect(taskId).toMatch(/^t2\.[A-Za-z0-9_-]+$/);
      expect(await client.request({ method: 'tasks/get', params: { taskId } } as never, Loose)).toMatchObject({ taskId, status: 'working' });
      const result = await client.request({ method: 'tasks/result', params: { taskId } } as never, Loose, { timeout: 30_000 });
      expect(textOf(result as never)).toContain('# Research Report: gateways');
      expect((result._meta as Record<string, unknown>)[RELATED]).toEqual({ taskId });
      await waitFor(() => statuses.some((st) => st.status === 'completed'), 'the completed status notification');
      expect(statuses.every((st) => st.taskId === taskId)).toBe(true);
      expect(statuses.map((st) => st.statusMessage)).toEqual(expect.arrayContaining(['Analyzing content...', 'Generating report...']));
    } finally {
      await client.close().catch(() => {});
      await serve.stop();
      await removeTree(home);
    }
  }, 60_000);
});
