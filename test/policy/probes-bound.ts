// Probes of state bound to its caller (issue 30): a 2026-07-28 request's requestState retried by
// another caller, another caller's task ids, and the audit records of refusals at the door (a bad
// token, another caller's session, a replayed requestState). "Another caller" is a second caller of
// the same group: it may use everything the first may, so only the binding can refuse it.
import { expect } from 'vitest';
import { post2026 } from '../support/raw-2026.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import type { Conn } from './conn.js';
import type { Road } from './policy-matrix.js';
import { auditRecord, freshSubject, refusal, served, textOf, type Probe, type ProbeTable, type Target } from './policy-run.js';
import { SCOPE } from './policy-servers.js';
import { CODEX_REFUSED } from './road-examples.js';

/** The request of this road that asks its client a question (an elicitation upstream). */
function askingRequest(road: Road, t: Target): { method: string; params: Record<string, unknown> } {
  const n = t.names;
  switch (road.row.road) {
    case 'tools/call':
      return { method: 'tools/call', params: { name: n.ask!, arguments: { message: 'whose answer?' } } };
    case 'tools/call call_tool':
      return { method: 'tools/call', params: { name: 'call_tool', arguments: { name: n.ask!, arguments: { message: 'whose answer?' } } } };
    case 'resources/read':
      return { method: 'resources/read', params: { uri: n.resource!.asked } };
    case 'prompts/get':
      return { method: 'prompts/get', params: { name: n.prompt!.asked } };
    default:
      throw new Error(`no asking request of ${road.row.road}`);
  }
}

interface Replay {
  other: Conn & { subject: string };
  refused: { code: number; message: string } | undefined;
}

export interface ReplayOptions {
  /** The answer to the question, as the caller `who` gives it. */
  answer?: (who: string) => Record<string, unknown>;
  /** What the first caller's own retry must come back with. */
  finished?: (result: Record<string, unknown>) => void;
}

const ANSWER = (who: string) => ({ action: 'accept', content: { answer: who } });
const ANSWERED = (result: Record<string, unknown>) => expect(JSON.stringify(result), 'the question was answered by its own caller').toContain('its own caller');

/** The first caller's request asks; the second retries it with the first's requestState; the first then finishes it. */
export async function replay(t: Target, request: { method: string; params: Record<string, unknown> }, options: ReplayOptions = {}): Promise<Replay> {
  const [mine, other] = await Promise.all([t.open('modern', 'team'), t.open('modern', 'team')]);
  const first = served(await mine.send(request.method, request.params), 'the asking request');
  expect(first.resultType, JSON.stringify(first)).toBe('input_required');
  const key = Object.keys(first.inputRequests as object)[0]!;
  const answer = (who: string) => ({ [key]: (options.answer ?? ANSWER)(who) });
  const state = first.requestState as string;
  const retried = await other.send(request.method, { ...request.params, inputResponses: answer('the other caller'), requestState: state });
  const done = served(await mine.send(request.method, { ...request.params, inputResponses: answer('its own caller'), requestState: state }), 'its own retry');
  (options.finished ?? ANSWERED)(done);
  return { other, refused: retried.error ?? (retried.result ? { code: 0, message: `served: ${textOf(retried.result)}` } : undefined) };
}

export function expectReplayRefused(refused: Replay['refused']): void {
  expect(refused?.code, refused?.message).toBe(-32602);
  expect(refused?.message).toMatch(/^Invalid requestState/);
}

const replayProbe: Probe = async (t, road) => expectReplayRefused((await replay(t, askingRequest(road, t))).refused);

async function newTask(t: Target, road: Road, conn: Conn): Promise<string> {
  const params = road.surface === 'mcp-server' ? CODEX_REFUSED : { name: t.names.task!.tool, arguments: t.names.task!.args(5) };
  const answer = served(await conn.send('tools/call', params, { task: true }), 'a task');
  return ((answer.task as { taskId?: string } | undefined)?.taskId ?? answer.taskId) as string;
}

/** Another caller's tasks/* of this caller's task is answered as for an unknown task; the task stays its own. */
const ownTaskProbe: Probe = async (t, road) => {
  const [mine, other] = await Promise.all([t.open(road.era, 'team'), t.open(road.era, 'team')]);
  try {
    const taskId = await newTask(t, road, mine);
    const task = { task: road.era === 'modern' };
    const method = road.row.road;
    if (method === 'tasks/list') {
      const ids = async (conn: Conn) => ((served(await conn.send('tasks/list'), 'tasks/list').tasks ?? []) as { taskId: string }[]).map((x) => x.taskId);
      expect(await ids(mine)).toContain(taskId);
      expect(await ids(other)).not.toContain(taskId);
      return;
    }
    const params = method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId };
    const text = refusal(await other.send(method, params, task), `${method} by another caller`);
    expect(text).toMatch(/^Task not found/);
    served(await mine.send('tasks/get', { taskId }, task), 'its own caller still gets it');
  } finally {
    await Promise.all([mine.close(), other.close()]);
  }
};

let door = 0;

/** A bad token (expired: 401; without the scope: 403) is refused, and the refusal recorded. */
const badTokenProbe: Probe = async (t, road) => {
  const { fixture, url, home, audience } = t.http!;
  const sub = freshSubject('door');
  for (const [status, token] of [
    [401, await fixture.mintAccessToken({ sub, groups: ['team'], scope: SCOPE }, { audience, expiresInSec: -120 })],
    [403, await fixture.mintAccessToken({ sub, groups: ['team'], scope: 'other' }, { audience })],
  ] as const) {
    const name = `door-probe-${++door}`;
    const params = { name, arguments: {} };
    const res =
      road.era === 'modern'
        ? (await post2026(url, { id: 1, method: 'tools/call', params, name, token }).catch(() => ({ response: { status: 0 } }))).response
        : await new RawHttpSession(url, token).post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    expect(res.status).toBe(status);
    await auditRecord(home, name, (r) => r.tool === name && r.outcome !== 'ok', `the ${status} refusal of ${name}`);
  }
};

/** A request on another caller's session is refused (404), and the refusal recorded with the caller that tried. */
const hijackProbe: Probe = async (t) => {
  const mine = await t.open('legacy', 'team', { raw: true });
  try {
    const { token, subject } = await t.http!.token('team');
    const other = new RawHttpSession(t.http!.url, token);
    other.sessionId = mine.sessionId!;
    const name = `door-probe-${++door}`;
    expect((await other.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } })).status).toBe(404);
    await auditRecord(t.http!.home, subject, (r) => r.subject === subject && r.outcome !== 'ok', `the refusal of ${subject} on another caller's session`);
  } finally {
    await mine.close();
  }
};

/** A replayed requestState is refused, and the refusal recorded with the caller that replayed it. */
const replayAuditProbe: Probe = async (t) => {
  const { other, refused } = await replay(t, { method: 'tools/call', params: { name: t.names.ask!, arguments: { message: 'whose answer?' } } });
  await expectReplayAudited(t, other.subject, refused);
};

export async function expectReplayAudited(t: Target, subject: string, refused: Replay['refused']): Promise<void> {
  expectReplayRefused(refused);
  const record = await auditRecord(t.http!.home, subject, (r) => r.subject === subject && r.method === 'tools/call', `the replay by ${subject}`);
  expect(record.outcome).toBe('refused_state');
  expect(record.error_code).toBe(-32602);
}

export const boundProbes: ProbeTable = (policy, road) => {
  const name = road.row.road;
  if (policy === 'audit' && name === 'refusal: bad token (401, 403)') return badTokenProbe;
  if (policy === 'audit' && name === "refusal: another caller's session") return hijackProbe;
  if (policy === 'audit' && name === 'refusal: replayed requestState' && road.surface !== 'mcp-server') return replayAuditProbe;
  if (policy !== 'bound' || road.surface === 'mcp-server' && name === 'tools/call') return undefined;
  const cell = road.cells.bound;
  if (!('holds' in cell)) return undefined;
  if (cell.holds.startsWith("another caller's retry with its requestState")) return replayProbe;
  if (name.startsWith('tasks/')) return ownTaskProbe;
  return undefined;
};
