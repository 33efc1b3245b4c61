// Tasks of 2026-07-28 clients (the tasks extension) on a real cluster (PostgreSQL, two replicas of
// each server, one shared request-state key): a task lives in the replica that created it, and its
// tasks/get, tasks/update and tasks/cancel sent to the other replica are forwarded there; an id whose
// holder was altered is not trusted (the replica answers as for an unknown task).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type Replica } from '../../scripts/cluster/cluster.mjs';
import { post2026 } from '../support/raw-2026.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');
const EXT = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [EXT]: {} } } };
type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

let cluster: Cluster | undefined;
let id = 0;

const send = async (replica: Replica, method: string, params: Record<string, unknown>, name: string) =>
  (await post2026<Answer>(replica.url, { id: ++id, method, params, name, token: cluster!.token, meta: WITH_TASKS })).answer;

async function poll(replica: Replica, taskId: string, until: (r: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { result, error } = await send(replica, 'tasks/get', { taskId }, taskId);
    if (error) throw new Error(`tasks/get: ${error.code} ${error.message}`);
    if (until(result!) || Date.now() > deadline) return result!;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const ended = (r: Record<string, unknown>) => ['completed', 'failed', 'cancelled'].includes(r.status as string);

describe('tasks of 2026-07-28 clients on a cluster', { tags: ['postgresql'] }, () => {
  beforeAll(async () => {
    cluster = await startCluster({
      replicas: 2,
      nginx: false,
      gatewayToml: `[mcp_servers.tasks]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TASK_FIXTURE)}]\n`,
    });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it("a gateway task created on A is read, answered and cancelled through B", async () => {
    const [a, b] = cluster!.gateways as [Replica, Replica];
    const { taskId } = (await send(a, 'tools/call', { name: 'mcp__tasks__confirm_delete', arguments: { filename: 'far.txt' } }, 'mcp__tasks__confirm_delete')).result as { taskId: string };
    const asking = await poll(b, taskId, (r) => r.status === 'input_required' || ended(r));
    const [key] = Object.keys(asking.inputRequests as object);
    expect((await send(b, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } }, taskId)).result).toMatchObject({ resultType: 'complete' });
    expect(await poll(b, taskId, ended)).toMatchObject({ status: 'completed', result: { content: [{ text: 'deleted far.txt' }] } });

    const long = ((await send(a, 'tools/call', { name: 'mcp__tasks__slow_compute', arguments: { seconds: 60 } }, 'mcp__tasks__slow_compute')).result as { taskId: string }).taskId;
    expect((await send(b, 'tasks/cancel', { taskId: long }, long)).result).toMatchObject({ resultType: 'complete' });
    expect(await poll(a, long, ended)).toMatchObject({ status: 'cancelled' });
  }, 60_000);

  it('an id whose holder was altered is not trusted: the replica answers as for an unknown task', async () => {
    const [a, b] = cluster!.gateways as [Replica, Replica];
    const { taskId } = (await send(a, 'tools/call', { name: 'mcp__tasks__slow_compute', arguments: { seconds: 1 } }, 'mcp__tasks__slow_compute')).result as { taskId: string };
    const parts = taskId.split('.');
    const forged = [parts[0], parts[1], Buffer.from('http://127.0.0.1:9').toString('base64url'), parts[3]].join('.');
    expect((await send(b, 'tasks/get', { taskId: forged }, forged)).error).toMatchObject({ code: -32602, message: `Task not found: ${forged}` });
  }, 60_000);

  it('an agent task (codex) created on A completes when read through B', async () => {
    const [a, b] = cluster!.agents as [Replica, Replica];
    const created = (await send(a, 'tools/call', { name: 'codex', arguments: { prompt: 'hello' } }, 'codex')).result!;
    expect(created).toMatchObject({ resultType: 'task' });
    expect(await poll(b, created.taskId as string, ended)).toMatchObject({ status: 'completed', result: { content: [{ text: 'echo: hello' }] } });
  }, 60_000);
});
