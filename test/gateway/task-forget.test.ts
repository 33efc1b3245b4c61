// A task the gateway forgets before it ended (here: its session ended) is cancelled on its upstream (a real SDK v1 tasks server, test/fixtures/task-upstream.mjs): no one can read it any more,
// so the upstream need not run it to its end. The host's one task table forgets it; the gateway's
// work cancels it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { startGateway, type GatewayHarness } from './gateway-harness.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');
const Loose = z.looseObject({});

describe('gateway: a forgotten task', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway([parseMcpServerConfig('tasks', { command: process.execPath, args: [TASK_FIXTURE] }).config]);
  }, 30_000);
  afterAll(async () => gw?.close());

  const cancelledCount = async () =>
    (JSON.parse((await gw.pool.upstreams().manager.callServerTool('tasks', 'cancelled', {})).content.map((c) => (c.type === 'text' ? c.text : '')).join('')) as { cancelled: number }).cancelled;
  const waitForCancel = async (before: number) => {
    const deadline = Date.now() + 10_000;
    while ((await cancelledCount()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return cancelledCount();
  };
  const startTask = (client: GatewayHarness['client']) =>
    client.request({ method: 'tools/call', params: { name: 'mcp__tasks__work', arguments: { label: 'long', steps: 200, stepMs: 50 }, task: { ttl: 60_000 } } }, Loose);

  it('is cancelled upstream when the session that created it ends', async () => {
    const other = await gw.connect();
    const before = await cancelledCount();
    expect((await startTask(other.client)).task).toMatchObject({ status: 'working' });
    await other.close();
    expect(await waitForCancel(before)).toBe(before + 1);
  }, 30_000);
});
