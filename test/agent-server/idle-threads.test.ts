// IdleThreads over a real thread: a thread still running its turn when its idle time has passed is
// shut down once it is idle, not forgotten (a call returns on its turn's last event, a moment before
// the thread is idle again).
import { describe, expect, it } from 'vitest';
import { IdleThreads } from '../../src/agent-server/index.js';
import { LocalThreadLeases } from '../../src/store/index.js';
import { nullLogger } from '../../src/util/index.js';
import { responsesTurn, rsp } from '../fixtures/fake-model-server.js';
import { agentTestBed, EventReader, text } from '../support/agent-harness.js';

const bed = agentTestBed();

describe('idle threads', () => {
  it('a thread still running when its idle time has passed is shut down on a later sweep, once idle', async () => {
    const h = await bed.harness();
    bed.server.enqueue({ kind: 'responses', events: [rsp.created()], hang: true }, responsesTurn({ text: 'next' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const idle = new IdleThreads(h.manager, new LocalThreadLeases(), 100, nullLogger);
    const turn = await thread.submit(text('q'));
    await bed.server.waitForHang();
    idle.touch(thread.id);
    idle.sweep(Date.now() + 1_000);
    expect(thread.status).toBe('running');
    await thread.submit({ type: 'interrupt' });
    await events.turnEnd(turn);
    await expect.poll(() => thread.status).toBe('idle');
    idle.sweep(Date.now() + 1_000);
    await expect.poll(() => h.manager.find(thread.id)).toBeUndefined();
    idle.stop();
  });
});
