// Probes of the agent server's own roads (`mcp-server --http`): its rules on codex and codex-reply,
// the argument ceilings of a call and of a task, a thread and an approval's requestState bound to the
// caller that started them, and calls that hold a slot (a turn the fake model keeps open).
import { expect } from 'vitest';
import { responsesTurn, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { ENVELOPE_2026 } from '../support/raw-2026.js';
import { waitFor } from '../support/wait.js';
import { modernHttp, rawSession, type Conn } from './conn.js';
import type { Road } from './policy-matrix.js';
import { auditRecord, refusal, served, sleep, textOf, type Probe, type ProbeTable, type Target } from './policy-run.js';
import { LIMITS } from './policy-servers.js';
import { expectReplayAudited, expectReplayRefused, replay } from './probes-bound.js';
import { sessionProbe } from './probes-door.js';
import { CODEX_REFUSED } from './road-examples.js';

/** Beyond the ceilings: a sandbox looser than the server's own (an `others` caller), a cwd outside the server's (anyone). */
const BEYOND = [
  { group: 'others', args: { prompt: 'x', sandbox: 'danger-full-access' }, refusal: /^The sandbox `danger-full-access` \(from `sandbox`\) is looser than this server allows your calls over HTTP/ },
  { group: 'team', args: CODEX_REFUSED.arguments, refusal: /^The working directory \/ \(from `cwd`\) is outside the directories this server allows your calls over HTTP/ },
] as const;

async function taskOutcome(conn: Conn, road: Road, created: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (road.era === 'legacy') {
    const id = (created.task as { taskId: string }).taskId;
    return served(await conn.send('tasks/result', { taskId: id }), 'tasks/result');
  }
  const id = created.taskId as string;
  const done = await waitFor(async () => {
    const state = served(await conn.send('tasks/get', { taskId: id }, { task: true }), 'tasks/get');
    return ['completed', 'failed', 'cancelled'].includes(state.status as string) && state;
  }, 'the task to end', 20_000);
  return (done.result ?? done) as Record<string, unknown>;
}

const denyProbe = (what: 'list' | 'call' | 'task'): Probe => async (t, road) => {
  const [others, team] = await Promise.all([t.open(road.era, 'others'), t.open(road.era, 'team')]);
  try {
    if (what === 'list') {
      const names = async (conn: Conn) => ((served(await conn.send('tools/list'), 'tools/list').tools ?? []) as { name: string }[]).map((x) => x.name);
      expect(await names(team)).toEqual(expect.arrayContaining(['codex', 'codex-reply']));
      expect(await names(others)).toEqual(['codex']);
      return;
    }
    const params = { name: 'codex-reply', arguments: { threadId: '0199a213-81c0-7800-8aa1-bbab2a035a53', prompt: 'x' } };
    const text = refusal(await others.send('tools/call', params, { task: what === 'task' }), 'codex-reply outside the rule');
    expect(text).toBe("Unknown tool 'codex-reply'");
  } finally {
    await Promise.all([others.close(), team.close()]);
  }
};

/** Arguments beyond the caller's ceiling: refused naming the argument, as a call's result or as its task's, before any turn. */
const ceilingProbe = (model: FakeModelServer): Probe => async (t, road) => {
  const before = model.requests.length;
  for (const beyond of BEYOND) {
    const conn = await t.open(road.era, beyond.group);
    try {
      const tasked = road.row.kind === 'task-call';
      const answer = served(await conn.send('tools/call', { name: 'codex', arguments: beyond.args }, { task: tasked }), 'codex');
      const result = tasked ? await taskOutcome(conn, road, answer) : answer;
      expect(result.isError, JSON.stringify(result)).toBe(true);
      expect(textOf(result)).toMatch(beyond.refusal);
    } finally {
      await conn.close();
    }
  }
  expect(model.requests.length, 'a refused call reached the model').toBe(before);
};

/** Another caller, allowed every tool, cannot continue this caller's thread; the model never hears of it. */
async function threadIsOwn(t: Target, road: Road, model: FakeModelServer): Promise<void> {
  model.discard();
  const [mine, other] = await Promise.all([t.open(road.era, 'team'), t.open(road.era, 'ops')]);
  try {
    model.enqueue(responsesTurn({ text: 'started' }));
    const started = served(await mine.send('tools/call', { name: 'codex', arguments: { prompt: 'start a thread' } }), 'codex');
    const threadId = (started.structuredContent as { threadId: string }).threadId;
    const before = model.requests.length;
    const text = refusal(await other.send('tools/call', { name: 'codex-reply', arguments: { threadId, prompt: 'more' } }), "another caller's codex-reply");
    expect(text).toBe(`Session not found for thread_id: ${threadId}`);
    expect(model.requests.length, 'the refused reply reached the model').toBe(before);
  } finally {
    await Promise.all([mine.close(), other.close()]);
  }
}

let probes = 0;
/** A codex call whose turn runs a command under `untrusted`: its approval is the question the replay is about. */
function approvalReplay(t: Target, model: FakeModelServer) {
  model.discard();
  model.enqueue(responsesTurn({ calls: [{ id: `approve-${++probes}`, name: 'shell', args: { command: ['touch', `approved-${probes}`] } }] }), responsesTurn({ text: 'declined, done' }));
  return replay(t, { method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'touch a file' } } }, {
    answer: () => ({ action: 'decline' }),
    finished: (result) => expect(textOf(result)).toBe('declined, done'),
  });
}

const boundProbe = (model: FakeModelServer): Probe => async (t, road) => {
  if (road.era === 'legacy') await sessionProbe(t, road);
  else expectReplayRefused((await approvalReplay(t, model)).refused);
  await threadIsOwn(t, road, model);
};

const replayAuditProbe = (model: FakeModelServer): Probe => async (t) => {
  const { other, refused } = await approvalReplay(t, model);
  await expectReplayAudited(t, other.subject, refused);
};

/** A codex call or task whose turn the model holds open until its client goes away. */
async function holdSlot(t: Target, road: Road, conn: Conn & { raw?: { post: (body: unknown, init: { signal: AbortSignal }) => Promise<Response> } }, token: string, signal: AbortSignal, tasked: boolean): Promise<string | undefined> {
  const params = { name: 'codex', arguments: { prompt: 'hold on' } };
  if (tasked) {
    const created = served(await conn.send('tools/call', params, { task: true }), 'a held task');
    return ((created.task as { taskId?: string } | undefined)?.taskId ?? created.taskId) as string;
  }
  const body = { jsonrpc: '2.0', id: `hold-${++probes}`, method: 'tools/call', params: road.era === 'modern' ? { ...params, _meta: ENVELOPE_2026 } : params };
  const sent =
    road.era === 'legacy'
      ? conn.raw!.post(body, { signal })
      : fetch(t.http!.url, { method: 'POST', signal, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'codex' }, body: JSON.stringify(body) });
  // Its response stays open (unread) until `signal` aborts: the call holds its slot until then.
  void sent.catch(() => {});
  return undefined;
}

const callsProbe = (model: FakeModelServer): Probe => async (t, road) => {
  const tasked = road.row.kind === 'task-call';
  const { token, subject } = await t.http!.token('team');
  const conn = road.era === 'legacy' ? await rawSession(t.http!.url, token) : modernHttp(t.http!.url, token);
  const stop = new AbortController();
  const tasks: string[] = [];
  const before = model.requests.length;
  model.discard();
  try {
    for (let i = 0; i < LIMITS.concurrentCalls; i++) model.enqueue({ kind: 'responses', events: [], hang: true });
    for (let i = 0; i < LIMITS.concurrentCalls; i++) {
      const id = await holdSlot(t, road, conn as never, token, stop.signal, tasked);
      if (id) tasks.push(id);
    }
    await waitFor(() => model.requests.length >= before + LIMITS.concurrentCalls, 'the held turns at the model', 20_000);
    const third = await conn.send('tools/call', CODEX_REFUSED, { task: tasked });
    expect(third.status, `a call while ${LIMITS.concurrentCalls} ${tasked ? 'tasks' : 'calls'} run: ${JSON.stringify(third)}`).toBe(429);
    expect(third.error?.message).toMatch(/^Too many concurrent calls/);
    await auditRecord(t.http!.home, subject, (r) => r.subject === subject && r.outcome === 'too_many_calls' && r.tool === 'codex', 'the refusal naming codex');
  } finally {
    stop.abort();
    for (const id of tasks) await conn.send('tasks/cancel', { taskId: id }, { task: road.era === 'modern' });
    await sleep(200);
    await conn.close();
    model.discard();
  }
};

/** `model()`: the fake model the server under test talks to (started after the table is read). */
export function agentProbes(modelOf: () => FakeModelServer): ProbeTable {
  return (policy, road) => {
    const model = modelOf();
    if (road.surface !== 'mcp-server') return undefined;
    const name = road.row.road;
    if (policy === 'deny') return name === 'tools/list' ? denyProbe('list') : name === 'tools/call' ? denyProbe('call') : name === 'tools/call+task' ? denyProbe('task') : undefined;
    if (policy === 'ceiling') return ceilingProbe(model);
    if (policy === 'bound' && name === 'tools/call') return boundProbe(model);
    if (policy === 'calls') return callsProbe(model);
    if (policy === 'audit' && name === 'refusal: replayed requestState') return replayAuditProbe(model);
    return undefined;
  };
}
