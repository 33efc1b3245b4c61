// The tasks extension (SEP-2663) for 2026-07-28 clients, on a 2025 upstream's tasks: a call to a
// task-supporting tool from a client declaring the extension becomes the upstream's task, answered
// with a CreateTaskResult under the gateway's id; tasks/get (DetailedTask, the outcome inlined once
// terminal, the open questions as `inputRequests`), tasks/update (answers), tasks/cancel.
import type { CallToolRequest, CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { PassThroughResult } from '../mcp-client/index.js';
import type { UpstreamAccess } from '../mcp/index.js';
import { createdTaskResult, declaresTasks, extensionRequired, requestCapabilities, taskAnswers, taskCaller, TaskIdParams, taskNotFound, taskOwner, UpdateParams } from '../mcp-host/index.js';
import { errorMessage } from '../util/index.js';
import type { TraceContext } from '../util/telemetry/index.js';
import type { Route } from './catalog-view.js';
import { toProtocolError } from './gateway-errors.js';
import { traceParentOf, type GatewayClient } from './gateway-client.js';
import { TERMINAL, withoutRelatedTask, type ModernTask, type TaskError } from './modern-tasks.js';
import { cancelUpstreamTask, relayTaskCall, TASK_RESULT_TIMEOUT_MS, upstreamTaskParams } from './upstream-tasks.js';
import type { RelayClient } from './relay.js';

/** An upstream task turned input_required: how long tasks/get waits for its questions to arrive. */
const QUESTIONS_WAIT_MS = 1_000;

/**
 * A 2026-07-28 tools/call: a task when the tool supports tasks, its client declares the extension
 * and its upstream offers tasks; a `required` tool refuses a client without the extension (-32021);
 * anything else runs as an ordinary call.
 */
export async function callAsModernTask(
  session: GatewayClient,
  client: RelayClient,
  route: Route,
  request: CallToolRequest,
  ctx: ServerContext,
  plain: () => Promise<CallToolResult>,
  access: UpstreamAccess,
): Promise<CallToolResult> {
  // Connected first: its live tool list (not a startup snapshot) then says what the tool supports.
  const { offered, support } = await session.upstreams().manager.toolTasks(route.server, route.name, { signal: ctx.mcpReq.signal });
  if (!offered || (support !== 'optional' && support !== 'required')) return plain();
  const capabilities = requestCapabilities(ctx);
  if (!declaresTasks(capabilities)) {
    if (support === 'required') throw extensionRequired(`Tool ${request.params.name} runs only as a task: it`);
    return plain();
  }
  const params = upstreamTaskParams(request, {});
  return relayTaskCall(session, route, client, ctx, params, access, async (answer) => {
    const created = answer.task as Record<string, unknown> | undefined;
    // The upstream ran it at once: its result is the answer.
    if (typeof created !== 'object' || created === null || typeof created.taskId !== 'string') return answer as CallToolResult;
    const ttl = typeof created.ttl === 'number' ? created.ttl : undefined;
    const task = await session.pool.modernTasks.created(taskOwner(ctx), route.server, created.taskId, capabilities, ttl);
    task.fetched = fetchOutcome(session, task, traceParentOf(session, ctx));
    return createdTaskResult({ resultType: 'task', ...taskFields(task, created) });
  });
}

/** The Task fields of the 2026-07-28 wire from a 2025 upstream's task (`ttl` → `ttlMs` as kept here, `pollInterval` → `pollIntervalMs`). */
function taskFields(task: ModernTask, upstream: Record<string, unknown>): Record<string, unknown> {
  const ms = (v: unknown) => (typeof v === 'number' && v > 0 ? Math.max(1, Math.round(v)) : undefined);
  const status = String(upstream.status ?? 'working');
  const pollIntervalMs = ms(upstream.pollInterval);
  return {
    taskId: task.id,
    status: status === 'input_required' ? 'working' : status,
    ...(typeof upstream.statusMessage === 'string' ? { statusMessage: upstream.statusMessage } : {}),
    createdAt: upstream.createdAt ?? new Date().toISOString(),
    lastUpdatedAt: upstream.lastUpdatedAt ?? upstream.createdAt ?? new Date().toISOString(),
    // What the gateway keeps it for (not null: it does forget it), which the upstream's own ttl bounds.
    ttlMs: task.keepMs,
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
  };
}

/**
 * The upstream's tasks/result, asked at once: it delivers the task's questions while it runs, and its
 * outcome. `traceParent`: the tools/call that created the task, which this continues.
 */
async function fetchOutcome(session: GatewayClient, task: ModernTask, traceParent: TraceContext | undefined): Promise<void> {
  const signal = task.controller.signal;
  try {
    const result = await session.upstreams().manager.taskRequest(task.server, 'tasks/result', task.upstreamId, { signal, timeoutMs: TASK_RESULT_TIMEOUT_MS, ...(traceParent ? { traceParent } : {}) });
    task.outcome = { result: withoutRelatedTask(result) };
  } catch (err) {
    if (signal.aborted) return;
    const e = toProtocolError(err);
    task.outcome = { error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
  } finally {
    // No question comes after the outcome: a tasks/get waiting for one answers now.
    task.questions.wake();
  }
}

/** A failed task's error: the upstream's JSON-RPC error, or the text of the result it stored as failed. */
function failure(task: ModernTask, statusMessage: unknown): TaskError {
  if (task.outcome && 'error' in task.outcome) return task.outcome.error;
  const content = (task.outcome?.result.content ?? []) as { type?: string; text?: string }[];
  const text = content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { code: -32603, message: text || (typeof statusMessage === 'string' ? statusMessage : 'the task failed') };
}

async function settled(promise: Promise<void> | undefined, signal: AbortSignal): Promise<void> {
  if (!promise) return;
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new Error('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.finally(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

export function registerModernTaskHandlers(session: GatewayClient): void {
  const { server, pool } = session;
  const owned = (ctx: ServerContext, taskId: string, method: string): ModernTask => pool.modernTasks.owned(taskCaller(ctx, method), taskId);
  const upstreamTask = async (task: ModernTask, ctx: ServerContext): Promise<PassThroughResult> => {
    const signal = ctx.mcpReq.signal;
    try {
      return await session.upstreams().manager.taskRequest(task.server, 'tasks/get', task.upstreamId, { signal, traceParent: traceParentOf(session, ctx) });
    } catch (err) {
      const e = toProtocolError(err);
      // The upstream no longer knows it (its ttl passed, it restarted): neither does the gateway now.
      if (e.code === -32602) pool.modernTasks.forget(task, `MCP server '${task.server}' no longer knows it: ${errorMessage(err)}`);
      throw e.code === -32602 ? taskNotFound(task.id) : e;
    }
  };

  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => {
    const task = owned(ctx, params.taskId, 'tasks/get');
    const now = await upstreamTask(task, ctx);
    const fields = taskFields(task, now);
    const status = String(now.status);
    if (TERMINAL.has(status)) {
      if (status === 'cancelled') return fields;
      await settled(task.fetched, ctx.mcpReq.signal);
      if (status === 'completed' && task.outcome && 'result' in task.outcome) return { ...fields, result: task.outcome.result };
      return { ...fields, status: 'failed', error: failure(task, now.statusMessage) };
    }
    // Its question is on its way (the upstream marks the task before it sends the question): wait for it, not for a poll.
    if (status === 'input_required') await task.questions.asked(QUESTIONS_WAIT_MS, ctx.mcpReq.signal);
    if (task.questions.size === 0) return fields;
    return { ...fields, status: 'input_required', inputRequests: task.questions.inputRequests() };
  });

  server.setRequestHandler('tasks/update', { params: UpdateParams }, async (params, ctx) => {
    owned(ctx, params.taskId, 'tasks/update').questions.answer(taskAnswers(params, ctx));
    return {};
  });

  // An ack only: the status is read with tasks/get. Cancelling an ended task is no error.
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => {
    const task = owned(ctx, params.taskId, 'tasks/cancel');
    const signal = ctx.mcpReq.signal;
    try {
      await cancelUpstreamTask(session.upstreams().manager, task.server, task.upstreamId, signal);
    } catch (err) {
      if (!TERMINAL.has(String((await upstreamTask(task, ctx)).status))) throw toProtocolError(err);
    }
    task.questions.rejectAll('the task was cancelled');
    return {};
  });
}
