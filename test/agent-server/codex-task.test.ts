// `codex` and `codex-reply` as tasks (2025-11-25 tasks), in-process with an SDK v2 client and the fake
// model: a task-augmented call answers at once with a task while the turn runs on; tasks/get reports
// it, tasks/result gives the call's result, tasks/cancel interrupts the turn; the turn's events name
// the task; another connection cannot see the task.
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { responsesTurn, rsp } from '../fixtures/fake-model-server.js';
import { agentTestBed } from '../support/agent-harness.js';
import { connectInMemory, inProcessAgent, type InProcess } from '../support/in-process-server.js';
import { waitFor } from '../support/wait.js';

const bed = agentTestBed();
const Loose = z.looseObject({});
type Loose = z.infer<typeof Loose>;
type Conn = Awaited<ReturnType<typeof connectInMemory>>;
const RELATED = 'io.modelcontextprotocol/related-task';

let ip: InProcess | undefined;
const conns: Conn[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) await c.close();
  await ip?.cleanup();
  ip = undefined;
});

async function connect(): Promise<Conn> {
  ip ??= await inProcessAgent(bed.server);
  const conn = await connectInMemory(ip);
  conns.push(conn);
  return conn;
}
const asTask = (c: Conn, name: string, args: Record<string, unknown>) =>
  c.client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } }, Loose, { timeout: 30_000 });
const ask = (c: Conn, method: string, taskId: unknown) => c.client.request({ method, params: { taskId } } as never, Loose, { timeout: 30_000 });
const taskIdOf = (created: Loose) => (created.task as { taskId: string }).taskId;
const statuses = (c: Conn) => c.notifications.filter((n) => n.method === 'notifications/tasks/status').map((n) => n.params as Loose);
const textOf = (r: Loose) => (r.content as { text: string }[])[0]!.text;

describe('codex as a task', () => {
  it('answers at once with a task; tasks/get, status notifications and tasks/result follow the turn', async () => {
    const c = await connect();
    bed.server.enqueue(responsesTurn({ text: 'all done' }));
    const created = await asTask(c, 'codex', { prompt: 'work on it' });
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000 });
    const taskId = taskIdOf(created);
    const result = await ask(c, 'tasks/result', taskId);
    expect(textOf(result)).toBe('all done');
    const threadId = (result.structuredContent as { threadId: string }).threadId;
    expect(result.structuredContent).toEqual({ threadId, content: 'all done' });
    expect((result._meta as Loose)[RELATED]).toEqual({ taskId });
    expect(await ask(c, 'tasks/get', taskId)).toMatchObject({ taskId, status: 'completed' });
    await waitFor(() => statuses(c).some((s) => s.status === 'completed'), 'the completed status notification');
    expect(statuses(c).every((s) => s.taskId === taskId)).toBe(true);
    // The turn's events still reach the client, on the connection's stream, naming the task.
    await waitFor(() => c.events.some((e) => e.msg.type === 'task_complete'), 'task_complete');
    expect(c.events.every((e) => (e._meta as Loose)[RELATED] !== undefined && ((e._meta as Loose)[RELATED] as Loose).taskId === taskId)).toBe(true);
    expect((await c.client.request({ method: 'tasks/list', params: {} } as never, Loose)).tasks).toEqual([expect.objectContaining({ taskId, status: 'completed' })]);

    // codex-reply runs as a task too, on the same thread.
    bed.server.enqueue(responsesTurn({ text: 'and more' }));
    const reply = await ask(c, 'tasks/result', taskIdOf(await asTask(c, 'codex-reply', { prompt: 'go on', threadId })));
    expect(reply.structuredContent).toEqual({ threadId, content: 'and more' });
  });

  it('tasks/cancel interrupts the turn: the task is cancelled and its result is "Turn aborted."', async () => {
    const c = await connect();
    bed.server.enqueue({ kind: 'responses', events: [rsp.created()], hang: true });
    const taskId = taskIdOf(await asTask(c, 'codex', { prompt: 'take long' }));
    await bed.server.waitForHang();
    expect(await ask(c, 'tasks/get', taskId)).toMatchObject({ status: 'working' });
    // A running task keeps its connection busy (an HTTP session holding it is neither idle nor evicted).
    expect(c.server.running).toBe(1);
    expect(await ask(c, 'tasks/cancel', taskId)).toMatchObject({ taskId, status: 'cancelled' });
    const result = await ask(c, 'tasks/result', taskId);
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Turn aborted.' }] });
    expect(await ask(c, 'tasks/get', taskId)).toMatchObject({ status: 'cancelled' });
    expect(c.server.running).toBe(0);
    const again = await ask(c, 'tasks/cancel', taskId).catch((e: unknown) => e);
    expect((again as ProtocolError).message).toContain('Cannot cancel task in terminal status: cancelled');
  });

  it("keeps a connection's tasks to it", async () => {
    const [a, b] = [await connect(), await connect()];
    bed.server.enqueue(responsesTurn({ text: 'mine' }));
    const taskId = taskIdOf(await asTask(a, 'codex', { prompt: 'private' }));
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const err = await ask(b, method, taskId).catch((e: unknown) => e);
      expect(err, method).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).message).toContain(`Task not found: ${taskId}`);
    }
    expect((await b.client.request({ method: 'tasks/list', params: {} } as never, Loose)).tasks).toEqual([]);
    expect(textOf(await ask(a, 'tasks/result', taskId))).toBe('mine');
  });
});
