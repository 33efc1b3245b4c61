// What the gateway asks of an upstream's tasks, for clients of either era: the params of a
// task-augmented tools/call, the call itself through the manager (the same filter and rights as a
// plain call), the cancel of a task, how long each may take, and the upstream's words without its
// 2025 related-task marker.
import { RELATED_TASK_META_KEY, type CallToolRequestParams, type CallToolResult } from '@modelcontextprotocol/server';
import type { PassThroughResult } from '../mcp-client/index.js';
import type { Req } from '../mcp-host/index.js';
import type { McpConnectionManager, TaskCallParams } from '../mcp/index.js';
import type { Route } from './catalog-view.js';
import { toolCallFailure } from './gateway-errors.js';
import type { GatewayPool } from './gateway-pool.js';
import type { RelayClient } from './relay.js';
import { reach } from './gateway-handlers.js';
import { withUpstreamSignIn } from './upstream-identity.js';
import type { UpstreamCaller } from '../mcp-client/index.js';

/** How long an upstream may take to answer tasks/cancel. */
export const TASK_CANCEL_TIMEOUT_MS = 10_000;
/** tasks/result waits as long as the task runs (the caller's cancellation, or forgetting the task, ends it sooner). */
export const TASK_RESULT_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * The upstream's tools/call params for `params`, task-augmented with `task`; the client's
 * progressToken stays behind (the upstream call gets its own).
 */
export function upstreamTaskParams(params: CallToolRequestParams, task: Record<string, unknown>): TaskCallParams {
  const { arguments: args, _meta } = params;
  const { progressToken: _token, ...meta } = _meta ?? {};
  return { ...(args ? { arguments: args } : {}), task, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) };
}

/**
 * The task-augmented call of `route`, inside the relay for `client` (its questions, progress and
 * cancellation tied to this request): the upstream's answer, or the call's error result.
 */
export function relayTaskCall(pool: GatewayPool, route: Route, client: RelayClient, req: Req, params: TaskCallParams): Promise<PassThroughResult | CallToolResult> {
  const { manager, relay } = pool.upstreams();
  return relay.within(route.server, client, req, async (call) => {
    try {
      return await withUpstreamSignIn(manager, req, route.server, () =>
        manager.callServerToolAsTask(route.server, route.name, params, { signal: req.signal, ...reach(req), onProgress: (p) => call.progress(p), ...(req.traceContext ? { traceParent: req.traceContext } : {}) }),
      );
    } catch (err) {
      return toolCallFailure(err);
    }
  });
}

/** tasks/cancel of `server`'s task `upstreamId`. */
export function cancelUpstreamTask(manager: McpConnectionManager, server: string, upstreamId: string, caller: UpstreamCaller | undefined, signal?: AbortSignal): Promise<PassThroughResult> {
  return manager.taskRequest(server, 'tasks/cancel', upstreamId, { ...(signal ? { signal } : {}), ...(caller ? { caller } : {}), timeoutMs: TASK_CANCEL_TIMEOUT_MS });
}

/** The upstream's words without the 2025 related-task marker (the task id is the gateway's own now). */
export function withoutRelatedTask<T extends Record<string, unknown>>(value: T): T {
  const meta = value._meta as Record<string, unknown> | undefined;
  if (!meta || !(RELATED_TASK_META_KEY in meta)) return value;
  const { [RELATED_TASK_META_KEY]: _gone, ...rest } = meta;
  return { ...value, ...(Object.keys(rest).length > 0 ? { _meta: rest } : { _meta: undefined }) };
}
