// The tasks extension (SEP-2663) for 2026-07-28 clients of `switchboard serve` (the built CLI), in
// front of a real upstream on SDK v1's 2025 tasks runtime (test/fixtures/task-upstream.mjs): raw
// 2026-07-28 requests (an SDK v2 client refuses `resultType: "task"`) over Streamable HTTP with
// [server_auth] (two callers with JWTs from a real authorization server fixture) and over stdio.
// A task is created, polled to completion with its result inlined, asks for input answered with
// tasks/update, is cancelled upstream; another caller cannot see it; unknown ids are refused; a
// client without the extension gets -32021 for a task-only tool and for tasks/*.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { ENVELOPE_2026, onStdioMessages, post2026 } from '../support/raw-2026.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { spawnServe, type ServeProcess } from './serve-process.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');
const EXT = 'io.modelcontextprotocol/tasks';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const WITH_TASKS = { [CAPS]: { elicitation: { form: {} }, extensions: { [EXT]: {} } } };
const WITHOUT_TASKS = { [CAPS]: { elicitation: { form: {} } } };
type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
/** Sends one 2026-07-28 request; the JSON-RPC answer. */
type Send = (method: string, params: Record<string, unknown>, name: string, meta?: Record<string, unknown>) => Promise<Answer>;

const config = (extra = '') => `[mcp_servers.tasks]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TASK_FIXTURE)}]\n${extra}`;

/** Polls tasks/get until the task is terminal (or `until` says so). */
async function poll(send: Send, taskId: string, until = (r: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(r.status as string)): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { result, error } = await send('tasks/get', { taskId }, taskId);
    if (error) throw new Error(`tasks/get: ${error.code} ${error.message}`);
    if (until(result!) || Date.now() > deadline) return result!;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The behaviour every transport shares: created, polled to completion, asked for input, cancelled, refused. */
function taskLifecycle(sendFor: () => Send) {
  it('creates a task for a task-supporting tool and inlines its result once completed', async () => {
    const send = sendFor();
    const created = (await send('tools/call', { name: 'mcp__tasks__slow_compute', arguments: { seconds: 0.3, label: 'first' } }, 'mcp__tasks__slow_compute')).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 120_000, pollIntervalMs: 100 });
    expect(created).not.toHaveProperty('task');
    expect(created).not.toHaveProperty('requestState');
    expect(created.taskId).toMatch(/^t2\.[A-Za-z0-9_-]+$/);
    expect(Date.parse(created.createdAt as string)).not.toBeNaN();
    const done = await poll(send, created.taskId as string);
    expect(done).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'completed', result: { content: [{ type: 'text', text: 'computed first' }] } });
    expect(JSON.stringify(done.result)).not.toContain('related-task');
    // An ordinary tool stays an ordinary call.
    const greet = (await send('tools/call', { name: 'mcp__tasks__greet', arguments: { name: 'you' } }, 'mcp__tasks__greet')).result!;
    expect(greet).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, you!' }] });
  }, 60_000);

  it('names as ttlMs how long the gateway keeps a task: its own limit when the upstream names none', async () => {
    const send = sendFor();
    const created = (await send('tools/call', { name: 'mcp__tasks__work', arguments: { label: 'unlimited', steps: 1, ttl: null } }, 'mcp__tasks__work')).result!;
    expect(created).toMatchObject({ resultType: 'task', ttlMs: 24 * 60 * 60 * 1000 });
    expect(await poll(send, created.taskId as string)).toMatchObject({ status: 'completed', ttlMs: 24 * 60 * 60 * 1000 });
  }, 60_000);

  it("an upstream's questions are the task's inputRequests; tasks/update answers them and the task goes on", async () => {
    const send = sendFor();
    const { taskId } = (await send('tools/call', { name: 'mcp__tasks__confirm_delete', arguments: { filename: 'notes.txt' } }, 'mcp__tasks__confirm_delete')).result as { taskId: string };
    const asking = await poll(send, taskId, (r) => r.status === 'input_required');
    expect(asking.status).toBe('input_required');
    const requests = asking.inputRequests as Record<string, { method: string; params: { message: string; _meta?: unknown } }>;
    const [key] = Object.keys(requests);
    expect(requests[key!]).toMatchObject({ method: 'elicitation/create', params: { message: 'Delete notes.txt?' } });
    expect(JSON.stringify(requests)).not.toContain('related-task');
    const ack = await send('tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } }, taskId);
    expect(Object.keys(ack.result!).sort()).toEqual(['_meta', 'resultType']);
    expect(await poll(send, taskId)).toMatchObject({ status: 'completed', result: { content: [{ text: 'deleted notes.txt' }] } });
  }, 60_000);

  it('cancels a running task at its upstream; cancelling it again is acknowledged too', async () => {
    const send = sendFor();
    const count = async () => JSON.parse(((await send('tools/call', { name: 'mcp__tasks__cancelled', arguments: {} }, 'mcp__tasks__cancelled')).result!.content as { text: string }[])[0]!.text) as { cancelled: number };
    const before = (await count()).cancelled;
    const { taskId } = (await send('tools/call', { name: 'mcp__tasks__slow_compute', arguments: { seconds: 60 } }, 'mcp__tasks__slow_compute')).result as { taskId: string };
    expect((await send('tasks/cancel', { taskId }, taskId)).result).toMatchObject({ resultType: 'complete' });
    expect(await poll(send, taskId)).toMatchObject({ status: 'cancelled' });
    expect((await send('tasks/cancel', { taskId }, taskId)).result).toMatchObject({ resultType: 'complete' });
    await expect.poll(async () => (await count()).cancelled, { timeout: 10_000 }).toBe(before + 1);
  }, 60_000);

  it('refuses an unknown task id (-32602), and a client without the extension (-32021)', async () => {
    const send = sendFor();
    for (const method of ['tasks/get', 'tasks/cancel']) {
      expect((await send(method, { taskId: 'no-such-task' }, 'no-such-task')).error).toMatchObject({ code: -32602, message: expect.stringContaining('Task not found: no-such-task') });
    }
    const required = (await send('tools/call', { name: 'mcp__tasks__failing_job', arguments: {} }, 'mcp__tasks__failing_job', WITHOUT_TASKS)).error!;
    expect(required.code).toBe(-32021);
    expect(required.data).toMatchObject({ requiredCapabilities: { extensions: { [EXT]: {} } } });
    expect((await send('tasks/get', { taskId: 'x' }, 'x', WITHOUT_TASKS)).error?.code).toBe(-32021);
    // An optional one runs as an ordinary call for it.
    const plain = (await send('tools/call', { name: 'mcp__tasks__slow_compute', arguments: { seconds: 0, label: 'sync' } }, 'mcp__tasks__slow_compute', WITHOUT_TASKS)).result!;
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ text: 'computed sync' }] });
  }, 60_000);
}

describe('switchboard serve --http: tasks for 2026-07-28 clients, per caller', () => {
  let fixture: OAuthFixture;
  let serve: ServeProcess;
  let home: string;
  const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };
  const sender = (who: 'alice' | 'bob'): Send => {
    let id = 0;
    return async (method, params, name, meta = WITH_TASKS) => (await post2026<Answer>(serve.url, { id: ++id, method, params, name, token: tokens[who], meta })).answer;
  };

  beforeAll(async () => {
    requireBuild();
    const port = await freePort();
    const mcpUrl = `http://127.0.0.1:${port}/mcp`;
    fixture = await startOAuthFixture({ jwt: { audience: mcpUrl, claims: () => ({ sub: 'alice' }) }, scopesSupported: ['mcp'] });
    home = await tempDir('sb-serve-tasks-2026-');
    const work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(path.join(home, 'config.toml'), config(`\n[server_auth]\nissuer = "${fixture.issuer}"\naudience = "${mcpUrl}"\nrequired_scopes = ["mcp"]\n`));
    serve = await spawnServe(['--http', `127.0.0.1:${port}`], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: work });
    tokens.alice = await fixture.mintAccessToken({ sub: 'alice', scope: 'mcp' });
    tokens.bob = await fixture.mintAccessToken({ sub: 'bob', scope: 'mcp' });
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  it('declares the extension in server/discover, and no 2025 `tasks` capability', async () => {
    const { result } = await sender('alice')('server/discover', {}, '');
    const capabilities = result!.capabilities as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({ [EXT]: {} });
    expect(capabilities).not.toHaveProperty('tasks');
  }, 60_000);

  taskLifecycle(() => sender('alice'));

  it("keeps a caller's tasks to that caller: another one is told they do not exist", async () => {
    const alice = sender('alice');
    const bob = sender('bob');
    const { taskId } = (await alice('tools/call', { name: 'mcp__tasks__slow_compute', arguments: { seconds: 1, label: 'mine' } }, 'mcp__tasks__slow_compute')).result as { taskId: string };
    for (const [method, params] of [['tasks/get', { taskId }], ['tasks/update', { taskId, inputResponses: {} }], ['tasks/cancel', { taskId }]] as const) {
      expect((await bob(method, params, taskId)).error, method).toMatchObject({ code: -32602, message: `Task not found: ${taskId}` });
    }
    expect(await poll(alice, taskId)).toMatchObject({ status: 'completed', result: { content: [{ text: 'computed mine' }] } });
  }, 60_000);
});

describe('switchboard serve (stdio): tasks for a 2026-07-28 client', () => {
  let home: string;
  let child: ChildProcessWithoutNullStreams;
  const waiting = new Map<number, (answer: Answer) => void>();
  let id = 0;
  const send: Send = (method, params, _name, meta = WITH_TASKS) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...ENVELOPE_2026, ...meta } } })}\n`);
    });

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-tasks-2026-stdio-');
    await writeFile(path.join(home, 'config.toml'), config());
    child = spawn(process.execPath, [BIN, 'serve'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: home, stdio: ['pipe', 'pipe', 'pipe'] });
    onStdioMessages(child.stdout, (message) => {
      if (typeof message.id === 'number') waiting.get(message.id)?.(message as unknown as Answer);
    });
    expect((await send('server/discover', {}, '')).result).toMatchObject({ capabilities: { extensions: { [EXT]: {} } } });
  }, 60_000);
  afterAll(async () => {
    child?.stdin.end();
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    if (home) await removeTree(home);
  });

  taskLifecycle(() => send);
});
