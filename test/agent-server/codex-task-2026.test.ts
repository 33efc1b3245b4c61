// `codex` as a task for 2026-07-28 clients (the tasks extension, SEP-2663) of `switchboard mcp-server
// --http` (a child process, fake model server), with raw 2026-07-28 requests (an SDK v2 client
// refuses `resultType: "task"`): a call answers at once with a CreateTaskResult, tasks/get reports
// the turn and inlines its result, an approval is the task's inputRequests and tasks/update answers
// it, tasks/cancel interrupts the turn; unknown ids and clients without the extension are refused.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTurn, rsp, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { makeServerHome, spawnHttpServer, type ServerHome } from '../support/mcp-server-harness.js';
import { post2026 } from '../support/raw-2026.js';

const TOKEN = 'test-token-0123456789abcdef';
const EXT = 'io.modelcontextprotocol/tasks';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const WITH_TASKS = { [CAPS]: { elicitation: { form: {} }, extensions: { [EXT]: {} } } };
type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe('switchboard mcp-server --http: codex as a task for 2026-07-28 clients', () => {
  let model: FakeModelServer;
  let sh: ServerHome;
  let http: Awaited<ReturnType<typeof spawnHttpServer>>;
  let id = 0;
  const send = async (method: string, params: Record<string, unknown>, name: string, meta: Record<string, unknown> = WITH_TASKS) =>
    (await post2026<Answer>(http.url, { id: ++id, method, params, name, token: TOKEN, meta })).answer;
  const poll = async (taskId: string, until: (r: Record<string, unknown>) => boolean) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { result } = await send('tasks/get', { taskId }, taskId);
      if (until(result!) || Date.now() > deadline) return result!;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const ended = (r: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(r.status as string);

  beforeAll(async () => {
    model = await startFakeModelServer();
    sh = await makeServerHome(model);
    http = await spawnHttpServer(sh, [], { SWITCHBOARD_MCP_TOKEN: TOKEN });
  }, 60_000);
  afterAll(async () => {
    if (http) expect(await http.stop()).toBe(0);
    await model?.close();
    await sh?.cleanup();
  });

  it('declares the extension; a codex call answers at once with a task whose result is inlined once done', async () => {
    expect(((await send('server/discover', {}, '')).result!.capabilities as Record<string, unknown>).extensions).toEqual({ [EXT]: {} });
    model.enqueue(responsesTurn({ text: 'all done' }));
    const created = (await send('tools/call', { name: 'codex', arguments: { prompt: 'work on it', cwd: sh.work } }, 'codex')).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(created.taskId).toMatch(/^t2\.[A-Za-z0-9_-]+$/);
    const done = await poll(created.taskId as string, ended);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'all done' }] } });
    expect((done.result as { structuredContent: { content: string } }).structuredContent.content).toBe('all done');
  }, 60_000);

  it("a turn's approval is the task's inputRequests; tasks/update answers it and the turn goes on", async () => {
    model.enqueue(responsesTurn({ calls: [{ id: 'c1', name: 'shell', args: { command: ['touch', 'task-2026.txt'] } }] }), responsesTurn({ text: 'File created!' }));
    const { taskId } = (await send('tools/call', { name: 'codex', arguments: { prompt: 'make a file', cwd: sh.work } }, 'codex')).result as { taskId: string };
    const asking = await poll(taskId, (r) => r.status === 'input_required' || ended(r));
    expect(asking.status).toBe('input_required');
    const requests = asking.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
    const [key] = Object.keys(requests);
    expect(requests[key!]).toMatchObject({ method: 'elicitation/create', params: { codex_elicitation: 'exec-approval' } });
    expect((await send('tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { decision: 'approved' } } } }, taskId)).result).toMatchObject({ resultType: 'complete' });
    expect(await poll(taskId, ended)).toMatchObject({ status: 'completed', result: { content: [{ text: 'File created!' }] } });
    expect(existsSync(path.join(sh.work, 'task-2026.txt'))).toBe(true);
  }, 60_000);

  it('tasks/cancel interrupts the turn; cancelling an ended task is acknowledged', async () => {
    model.enqueue({ kind: 'responses', events: [rsp.created()], hang: true });
    const { taskId } = (await send('tools/call', { name: 'codex', arguments: { prompt: 'take long', cwd: sh.work } }, 'codex')).result as { taskId: string };
    await model.waitForHang();
    expect((await send('tasks/cancel', { taskId }, taskId)).result).toMatchObject({ resultType: 'complete' });
    expect(await poll(taskId, ended)).toMatchObject({ status: 'cancelled' });
    expect((await send('tasks/cancel', { taskId }, taskId)).result).toMatchObject({ resultType: 'complete' });
  }, 60_000);

  it('refuses an unknown id (-32602) and tasks/* without the extension (-32021); without it a call runs as before', async () => {
    expect((await send('tasks/get', { taskId: 'nope' }, 'nope')).error).toMatchObject({ code: -32602, message: expect.stringContaining('Task not found: nope') });
    const refused = (await send('tasks/get', { taskId: 'nope' }, 'nope', { [CAPS]: {} })).error!;
    expect(refused.code).toBe(-32021);
    expect(refused.data).toMatchObject({ requiredCapabilities: { extensions: { [EXT]: {} } } });
    model.enqueue(responsesTurn({ text: 'plain' }));
    const plain = (await send('tools/call', { name: 'codex', arguments: { prompt: 'just answer', cwd: sh.work } }, 'codex', { [CAPS]: {} })).result!;
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
  }, 60_000);
});
