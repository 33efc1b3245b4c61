// One ordinary request of each road, as a caller of the `team` group sends it (after whatever it
// needs first, such as a task to ask about): the probes of limits, audit, spans and sessions send it
// and look for what it left behind.
import { expect } from 'vitest';
import type { Answer, Conn, SendOptions } from './conn.js';
import type { Road } from './policy-matrix.js';
import type { Names } from './policy-run.js';

export interface Example {
  method: string;
  params: Record<string, unknown>;
  options: SendOptions;
  /** What the audit trail names as its tool and upstream, when it names them. */
  tool?: string;
  upstream?: string;
  notification?: boolean;
}

/** The codex call every agent-server example makes: refused by the caller's ceiling at once (a cwd outside the server's), so no model turn is needed. */
export const CODEX_REFUSED = { name: 'codex', arguments: { prompt: 'x', cwd: '/' } };

/** Over stdio there are no ceilings: a codex call without a prompt is refused at once instead. */
const CODEX_NO_PROMPT: { name: string; arguments: Record<string, unknown> } = { name: 'codex', arguments: {} };

async function taskOf(conn: Conn, n: Names, codex: { name: string; arguments: Record<string, unknown> } | undefined): Promise<string> {
  const params = codex ?? { name: n.task!.tool, arguments: n.task!.args(1) };
  const answer = await conn.send('tools/call', params, { task: true });
  const id = (answer.result?.task as { taskId?: string } | undefined)?.taskId ?? (answer.result?.taskId as string | undefined);
  expect(id, `a task to ask about: ${JSON.stringify(answer)}`).toEqual(expect.any(String));
  return id!;
}

/** The road's request; `conn` is the caller's own (a task the road needs is created on it first). */
export async function example(road: Road, n: Names, conn: Conn): Promise<Example> {
  const codex = road.surface === 'mcp-server' ? (road.transport === 'http' ? CODEX_REFUSED : CODEX_NO_PROMPT) : undefined;
  const plain = (method: string, params: Record<string, unknown> = {}, extra: Partial<Example> = {}): Example => ({ method, params, options: {}, ...extra });
  const call = (name: string, args: Record<string, unknown>, tool = name, upstream: string | null = codex ? null : n.server): Example =>
    plain('tools/call', { name, arguments: args }, { tool, ...(upstream ? { upstream } : {}) });
  switch (road.row.road) {
    case 'tools/call':
      return codex ? call('codex', codex.arguments) : call(n.echo.name, n.echo.args);
    case 'tools/call+task':
      return { ...(codex ? call('codex', codex.arguments) : call(n.task!.tool, n.task!.args(1), n.task!.tool, n.task!.tool.startsWith('mcp__') ? 't' : n.server)), options: { task: true } };
    case 'tools/call (listed tool)':
      return call(n.echo.name, n.echo.args);
    case 'tools/call search_tools':
      return call('search_tools', { query: 'echo' }, 'search_tools', null);
    case 'tools/call call_tool':
      return call('call_tool', { name: n.task!.tool, arguments: n.task!.args(1) }, n.task!.tool, 't');
    case 'tools/call+task call_tool':
      return { ...call('call_tool', { name: n.task!.tool, arguments: n.task!.args(1) }, n.task!.tool, 't'), options: { task: true } };
    case 'resources/read':
      return plain('resources/read', { uri: n.resource!.readable }, { tool: n.resource!.readable, upstream: n.server });
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return plain(road.row.road, { uri: n.resource!.readable }, { tool: n.resource!.readable });
    case 'prompts/get':
      return plain('prompts/get', { name: n.prompt!.allowed, arguments: { who: 'ada' } }, { tool: n.prompt!.allowed, upstream: n.server });
    case 'completion/complete':
      return plain('completion/complete', { ref: { type: 'ref/prompt', name: n.prompt!.allowed }, argument: { name: 'who', value: 'a' } });
    case 'logging/setLevel':
      return plain('logging/setLevel', { level: 'info' });
    case 'tasks/get':
    case 'tasks/result':
    case 'tasks/cancel':
      return plain(road.row.road, { taskId: await taskOf(conn, n, codex) }, { options: { task: road.era === 'modern' } });
    case 'tasks/update':
      return plain('tasks/update', { taskId: await taskOf(conn, n, codex), inputResponses: {} }, { options: { task: true } });
    case 'subscriptions/listen':
      return plain('subscriptions/listen', { notifications: { toolsListChanged: true } });
    case 'notifications/roots/list_changed':
      return plain('notifications/roots/list_changed', {}, { notification: true });
    case 'tools/list':
    case 'resources/list':
    case 'resources/templates/list':
    case 'prompts/list':
    case 'tasks/list':
    case 'server/discover':
      return plain(road.row.road);
    default:
      throw new Error(`no example request of the road ${road.row.road}`);
  }
}

export async function sendExample(conn: Conn, ex: Example, extra: { traceparent?: string } = {}): Promise<Answer> {
  if (ex.notification) return { status: await conn.notify(ex.method, ex.params) };
  return conn.send(ex.method, ex.params, { ...ex.options, ...extra });
}
