import { describe, expect, it } from 'vitest';
import type { EventMsg } from '../../protocol/index.js';
import { createPlanTool } from './plan.js';
import type { ToolContext } from './tool.js';

function context(events: EventMsg[]): ToolContext {
  return {
    threadId: 't',
    turnId: 'turn',
    callId: 'c',
    cwd: '/',
    approvalPolicy: 'never',
    sandboxPolicy: { type: 'read-only' },
    signal: new AbortController().signal,
    emit: (msg) => events.push(msg),
    requestApproval: () => Promise.reject(new Error('no approvals for plans')),
    isApprovedForSession: () => false,
  };
}

describe('update_plan', () => {
  it('emits plan_update with the explanation and steps', async () => {
    const events: EventMsg[] = [];
    const plan = [
      { step: 'Read the code', status: 'completed' },
      { step: 'Write the fix', status: 'in_progress' },
      { step: 'Run the tests', status: 'pending' },
    ];
    const result = await createPlanTool().run({ explanation: 'Start small', plan }, context(events));
    expect(result).toEqual({ output: 'Plan updated', success: true });
    expect(events).toEqual([{ type: 'plan_update', explanation: 'Start small', plan }]);
  });

  it('rejects bad input without emitting', async () => {
    const events: EventMsg[] = [];
    const tool = createPlanTool();
    expect((await tool.run({ plan: [{ step: 'x', status: 'done' }] }, context(events))).success).toBe(false);
    const two = [{ step: 'a', status: 'in_progress' }, { step: 'b', status: 'in_progress' }];
    expect(await tool.run({ plan: two }, context(events))).toEqual({ output: 'at most one step can be in_progress at a time', success: false });
    expect(events).toEqual([]);
  });
});
