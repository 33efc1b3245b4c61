// The gateway's side of the tasks vocabulary (2025-11-25): a task-augmented tools/call passed to an
// upstream that offers tasks, and tasks/get, tasks/result, tasks/list, tasks/cancel, each answered by
// the upstream that owns the task, for the client that created it only.
import type { CallToolRequest, CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { PassThroughResult, TaskMethod } from '../mcp-client/index.js';
import type { UpstreamAccess } from '../mcp/index.js';
import { toProtocolError } from './gateway-errors.js';
import { traceParentOf, type GatewayClient } from './gateway-client.js';
import type { GatewaySession } from './gateway-session.js';
import type { TaskEntry } from './gateway-tasks.js';
import type { Route } from './catalog-view.js';
import { createdTaskResult, TaskIdParams } from '../mcp-host/index.js';
import { relayTaskCall, TASK_CANCEL_TIMEOUT_MS, TASK_RESULT_TIMEOUT_MS, upstreamTaskParams } from './upstream-tasks.js';

/** What the gateway declares: tasks for tools/call, listing and cancelling them. */
export const GATEWAY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
const ListParams = z.looseObject({ cursor: z.string().optional() });

/**
 * A tools/call with `params.task`: to an upstream that offers tasks it goes task-augmented, and its
 * CreateTaskResult reaches the client under the gateway's task id; any other upstream runs the call
 * as usual (a receiver without tasks for a request processes it normally).
 */
export async function callAsTask(
  session: GatewayClient,
  route: Route,
  request: CallToolRequest,
  ctx: ServerContext,
  plain: () => Promise<CallToolResult>,
  access: UpstreamAccess,
): Promise<CallToolResult> {
  const { offered } = await session.upstreams().manager.toolTasks(route.server, route.name, { signal: ctx.mcpReq.signal });
  if (!offered) return plain();
  const params = upstreamTaskParams(request, request.params.task as Record<string, unknown>);
  return relayTaskCall(session, route, session, ctx, params, access, (result) =>
    typeof result.task !== 'object' || result.task === null ? (result as CallToolResult) : createdTaskResult(session.pool.tasks.created(session, route.server, result)),
  );
}

export function registerTaskHandlers(session: GatewaySession): void {
  const { server, pool } = session;
  const forward = async (method: Exclude<TaskMethod, 'tasks/list'>, entry: TaskEntry, ctx: ServerContext, timeoutMs?: number): Promise<PassThroughResult> => {
    const signal = ctx.mcpReq.signal;
    try {
      const answer = await session.upstreams().manager.taskRequest(entry.server, method, entry.upstreamId, { signal, traceParent: traceParentOf(session, ctx), ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
      return pool.tasks.toClient(entry, answer);
    } catch (err) {
      throw toProtocolError(err);
    }
  };

  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => forward('tasks/get', pool.tasks.owned(session, params.taskId), ctx));

  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => forward('tasks/cancel', pool.tasks.owned(session, params.taskId), ctx, TASK_CANCEL_TIMEOUT_MS));

  // What the upstream starts while the result is awaited (an elicitation of an input_required task)
  // belongs to this client, like traffic during a call.
  server.setRequestHandler('tasks/result', { params: TaskIdParams }, async (params, ctx) => {
    const entry = pool.tasks.owned(session, params.taskId);
    return session.upstreams().relay.within(entry.server, session, ctx, () => forward('tasks/result', entry, ctx, TASK_RESULT_TIMEOUT_MS));
  });

  // This client's tasks only, each as its upstream reports it now; one the upstream no longer knows is forgotten.
  server.setRequestHandler('tasks/list', { params: ListParams }, async (_params, ctx) => {
    const tasks = await Promise.all(
      pool.tasks.ownedBy(session).map(async (entry) => {
        try {
          return await forward('tasks/get', entry, ctx);
        } catch {
          pool.tasks.forget(entry);
          return undefined;
        }
      }),
    );
    return { tasks: tasks.filter((t) => t !== undefined) };
  });
}
