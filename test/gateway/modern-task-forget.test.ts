// A 2026-07-28 task the gateway forgets before it ended (its caller's bound, shutdown) is cancelled on
// its upstream (a real SDK v1 tasks server, test/fixtures/task-upstream.mjs, through the pool's own
// connection manager): no one can read it any more, so the upstream need not run it to its end.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { startGateway, type GatewayHarness } from './gateway-harness.js';

const TASK_FIXTURE = fileURLToPath(new URL('../fixtures/task-upstream.mjs', import.meta.url));

describe('gateway: a forgotten 2026-07-28 task', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway([parseMcpServerConfig('tasks', { command: process.execPath, args: [TASK_FIXTURE] }).config]);
  }, 30_000);
  afterAll(async () => gw?.close());

  it('is cancelled upstream when forgotten while it runs', async () => {
    const { manager } = gw.pool.upstreams();
    const cancelledCount = async () => (JSON.parse((await manager.callServerTool('tasks', 'cancelled', {})).content.map((c) => (c.type === 'text' ? c.text : '')).join('')) as { cancelled: number }).cancelled;
    const before = await cancelledCount();
    const answer = await manager.callServerToolAsTask('tasks', 'work', { arguments: { label: 'long', steps: 200, stepMs: 50 }, task: {} });
    const task = await gw.pool.modernTasks.created('alice', 'tasks', (answer.task as { taskId: string }).taskId, undefined, undefined);
    gw.pool.modernTasks.forget(task, 'a test forgets it');
    const deadline = Date.now() + 10_000;
    while ((await cancelledCount()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await cancelledCount()).toBe(before + 1);
  }, 30_000);
});
