// Approvals as an event/Op round trip, and interrupting a turn in each of its phases.
import { describe, expect, it } from 'vitest';
import { responsesTurn, rsp } from '../fixtures/fake-model-server.js';
import { blockingTool, guardedTool } from '../fixtures/test-tools.js';
import { agentTestBed, EventReader, text, type Harness } from '../support/agent-harness.js';

const bed = agentTestBed();
let h: Harness;

type Item = Record<string, unknown>;
const outputs = (n: number) => (bed.server.requests[n]!.body.input as Item[]).filter((i) => i.type === 'function_call_output').map((i) => i.output);
const call = (id: string, command: string[] = ['touch', 'x']) => ({ id, name: 'guarded', args: { command } });

async function onRequest() {
  h = await bed.harness({ tools: [guardedTool], raw: { approval_policy: 'on-request' } });
  const thread = await h.manager.start();
  return { thread, events: new EventReader(thread) };
}

describe('approvals', () => {
  it('approved: the request is an event, the answer an Op, and the tool runs', async () => {
    bed.server.enqueue(responsesTurn({ calls: [call('c1')] }), responsesTurn({ text: 'done' }));
    const { thread, events } = await onRequest();
    const turnId = await thread.submit(text('go'));
    const req = await events.until('exec_approval_request');
    expect(req).toMatchObject({ call_id: 'c1', turn_id: turnId, command: ['touch', 'x'], reason: 'test', parsed_cmd: [{ type: 'unknown', cmd: 'touch x' }] });
    expect(req.approval_id).toBeUndefined();
    await thread.submit({ type: 'exec_approval', id: 'c1', turn_id: turnId, decision: 'approved' });
    expect(await events.turnEnd(turnId)).toMatchObject({ type: 'task_complete', last_agent_message: 'done' });
    expect(outputs(1)).toEqual(['ran touch x (approved)']);
  });

  it('approved_for_session is remembered: the same command is not asked again in this thread', async () => {
    bed.server.enqueue(responsesTurn({ calls: [call('c1')] }), responsesTurn({ calls: [call('c2')] }), responsesTurn({ calls: [call('c3', ['rm', 'x'])] }), responsesTurn({ text: 'done' }));
    const { thread, events } = await onRequest();
    const turnId = await thread.submit(text('go'));
    await events.until('exec_approval_request');
    await thread.submit({ type: 'exec_approval', id: 'c1', decision: 'approved_for_session' });
    // c2 runs without a question; c3 is a different command and is asked
    const next = await events.until('exec_approval_request');
    expect(next.call_id).toBe('c3');
    await thread.submit({ type: 'exec_approval', id: 'c3', decision: 'approved' });
    await events.turnEnd(turnId);
    expect(events.seen.filter((e) => e.msg.type === 'exec_approval_request')).toHaveLength(2);
    expect(outputs(3)).toEqual(['ran touch x (approved_for_session)', 'ran touch x (approved_for_session)', 'ran rm x (approved)']);
  });

  it('denied: the tool does not run and the model is told', async () => {
    bed.server.enqueue(responsesTurn({ calls: [call('c1')] }), responsesTurn({ text: 'ok, I will not' }));
    const { thread, events } = await onRequest();
    const turnId = await thread.submit(text('go'));
    await events.until('exec_approval_request');
    await thread.submit({ type: 'exec_approval', id: 'c1', decision: 'denied' });
    expect(await events.turnEnd(turnId)).toMatchObject({ type: 'task_complete' });
    expect(outputs(1)).toEqual(['rejected by user']);
  });

  it('abort: the turn ends with turn_aborted and the model is not asked again', async () => {
    bed.server.enqueue(responsesTurn({ calls: [call('c1')] }), responsesTurn({ text: 'after' }));
    const { thread, events } = await onRequest();
    const turnId = await thread.submit(text('go'));
    await events.until('exec_approval_request');
    await thread.submit({ type: 'exec_approval', id: 'c1', decision: 'abort' });
    expect(await events.turnEnd(turnId)).toEqual({ type: 'turn_aborted', turn_id: turnId, reason: 'interrupted' });
    expect(bed.server.requests).toHaveLength(1);
    // the next turn sends a valid conversation: the aborted call has an output
    const t2 = await thread.submit(text('next'));
    await events.turnEnd(t2);
    expect(outputs(1)).toEqual(['aborted: the user interrupted the turn']);
  });

  it('patch approvals go through apply_patch_approval_request / patch_approval', async () => {
    bed.server.enqueue(responsesTurn({ calls: [{ id: 'p1', name: 'guarded', args: { command: [], patch: true } }] }), responsesTurn({ text: 'patched' }));
    const { thread, events } = await onRequest();
    const turnId = await thread.submit(text('go'));
    const req = await events.until('apply_patch_approval_request');
    expect(req).toMatchObject({ call_id: 'p1', turn_id: turnId, reason: 'write f.txt', changes: { [`${thread.settings.cwd}/f.txt`]: { type: 'add', content: 'x' } } });
    // an answer for an unknown id changes nothing
    await thread.submit({ type: 'patch_approval', id: 'other', decision: 'approved' });
    await thread.submit({ type: 'patch_approval', id: 'p1', decision: 'approved' });
    await events.turnEnd(turnId);
    expect(outputs(1)).toEqual(['ran patch (approved)']);
  });

  it('under approval policy never, requests are denied without asking', async () => {
    h = await bed.harness({ tools: [guardedTool], raw: { approval_policy: 'never' } });
    bed.server.enqueue(responsesTurn({ calls: [call('c1')] }), responsesTurn({ text: 'fine' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    await events.turnEnd(await thread.submit(text('go')));
    expect(events.types()).not.toContain('exec_approval_request');
    expect(outputs(1)).toEqual(['rejected by user']);
  });
});

describe('interrupt', () => {
  it('aborts a model stream in flight', async () => {
    h = await bed.harness();
    bed.server.enqueue({ kind: 'responses', events: [rsp.created(), rsp.textDelta('thinking')], hang: true }, responsesTurn({ text: 'second' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const t1 = await thread.submit(text('q'));
    await events.until('agent_message_delta');
    await thread.submit({ type: 'interrupt' });
    expect(await events.turnEnd(t1)).toMatchObject({ type: 'turn_aborted', reason: 'interrupted' });
    expect(await events.turnEnd(await thread.submit(text('q2')))).toMatchObject({ last_agent_message: 'second' });
  });

  it('aborts a running tool through its signal', async () => {
    const state = { started: false, aborted: false };
    h = await bed.harness({ tools: [blockingTool(state)] });
    bed.server.enqueue(responsesTurn({ calls: [{ id: 'b1', name: 'block', args: {} }] }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const started = new Promise<void>((resolve) => (state as { onStart?: () => void }).onStart = resolve);
    const t1 = await thread.submit(text('q'));
    await started;
    await thread.submit({ type: 'interrupt' });
    expect(await events.turnEnd(t1)).toMatchObject({ type: 'turn_aborted' });
    expect(state.aborted).toBe(true);
  });

  it('aborts a pending approval', async () => {
    bed.server.enqueue(responsesTurn({ calls: [call('c1')] }));
    const { thread, events } = await onRequest();
    const t1 = await thread.submit(text('go'));
    await events.until('exec_approval_request');
    await thread.submit({ type: 'interrupt' });
    expect(await events.turnEnd(t1)).toMatchObject({ type: 'turn_aborted' });
    // a late answer is ignored
    await thread.submit({ type: 'exec_approval', id: 'c1', decision: 'approved' });
    expect(bed.server.requests).toHaveLength(1);
  });

  it('shutdown aborts the running turn and ends the event stream', async () => {
    h = await bed.harness();
    bed.server.enqueue({ kind: 'responses', events: [rsp.created()], hang: true });
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const t1 = await thread.submit(text('q'));
    await bed.server.waitForHang();
    await thread.submit({ type: 'shutdown' });
    expect(await events.turnEnd(t1)).toMatchObject({ type: 'turn_aborted' });
    expect((await events.next()).msg.type).toBe('shutdown_complete');
    await expect(events.next()).rejects.toThrow(/ended/);
    await expect(thread.submit(text('more'))).rejects.toThrow(/shut down/);
    expect(h.manager.find(thread.id)).toBeUndefined();
  });
});
