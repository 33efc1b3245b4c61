// The agent server for 2026-07-28 clients: a fresh SDK server per request (no session) answering
// server/discover, tools/list and tools/call (and empty prompt and resource lists; other methods
// get the SDK's own -32601, HTTP 404). A call runs over rounds: an approval the turn needs ends
// the round with an input-required result carrying Codex's elicitation, and the client's retry with
// the answer resumes the turn; codex/event and progress go out on the current round's response stream.
// A request declaring the tasks extension gets the call as a task instead (modern-codex-tasks.ts).
import type { CallToolRequestParams, McpServerFactory, ServerContext } from '@modelcontextprotocol/server';
import { TASKS_EXTENSION } from '../protocol/values.js';
import { errorMessage, type Logger } from '../util/index.js';
import {
  auditedServer,
  createdTaskResult,
  declaresTasks,
  requestCapabilities,
  taskAnswers,
  taskCaller,
  TaskIdParams,
  taskOwner,
  TaskServer,
  UpdateParams,
  type InputFlows,
} from '../mcp-host/index.js';
import { CallNotifier } from './call-notifier.js';
import type { CodexServerOptions } from './codex-server.js';
import type { ModernCodexTasks } from './modern-codex-tasks.js';
import { codexTools } from './tool-definitions.js';
import type { CodexAgent } from './tool-call.js';
import { accessOf, dispatchToolCall, refuseCall, runToolCall, type ToolDispatch } from './tool-dispatch.js';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

export function codexServerFactory(agent: CodexAgent, options: CodexServerOptions, logger: Logger, flows: InputFlows, tasks: ModernCodexTasks): McpServerFactory {
  const dispatch = { agent, options, logger };
  return () => {
    // A TaskServer: a tools/call may answer with a CreateTaskResult.
    const server = new TaskServer(
      { name: options.name, title: options.title, version: options.version },
      // Empty prompts and resources: a 2026-07-28 client may ask for every list (with its cache hints).
      {
        capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, extensions: { [TASKS_EXTENSION]: {} } },
        supportedProtocolVersions: [MODERN_PROTOCOL_VERSION],
      },
    );
    server.setRequestHandler('tools/list', (_request, ctx) => {
      const { view } = accessOf(agent, ctx);
      return { tools: codexTools().filter((t) => view.allowsOwn(t.name)) };
    });
    server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    server.setRequestHandler('resources/list', () => ({ resources: [] }));
    server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
    server.setRequestHandler('tools/call', (request, ctx) => {
      const refusal = refuseCall(request.params, accessOf(agent, ctx));
      if (refusal) return refusal;
      if (declaresTasks(requestCapabilities(ctx))) return startTask(dispatch, tasks, request.params, ctx).then(createdTaskResult);
      return flows.round(ctx, request.params.name, (flowCtx, channel) =>
        dispatchToolCall(dispatch, request.params, flowCtx, flowCtx.mcpReq.signal, {
          // The approval's codex_* fields ride the embedded request as they do a 2025 elicitation.
          elicit: (params, signal) => channel.ask({ method: 'elicitation/create', params } as Parameters<typeof channel.ask>[0], { signal }),
          capabilities: () => requestCapabilities(ctx),
        }),
      );
    });
    server.setRequestHandler('tasks/get', { params: TaskIdParams }, (params, ctx) => tasks.get(taskCaller(ctx, 'tasks/get'), params.taskId));
    server.setRequestHandler('tasks/update', { params: UpdateParams }, (params, ctx) => {
      tasks.update(taskCaller(ctx, 'tasks/update'), params.taskId, taskAnswers(params, ctx));
      return {};
    });
    server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (params, ctx) => {
      tasks.cancel(taskCaller(ctx, 'tasks/cancel'), params.taskId);
      return {};
    });
    server.onerror = (err) => logger.debug('mcp 2026-07-28 request error', { error: errorMessage(err) });
    return agent.audit ? auditedServer(server, agent.audit) : server;
  };
}

/**
 * The call as a task: its turn runs on without a request, so its codex/event notifications have no
 * stream to go to; its progress becomes the task's status message, its approvals the task's
 * `inputRequests` (answered with tasks/update).
 */
function startTask(d: ToolDispatch, tasks: ModernCodexTasks, params: CallToolRequestParams, ctx: ServerContext): Promise<Record<string, unknown>> {
  const access = accessOf(d.agent, ctx);
  const capabilities = requestCapabilities(ctx);
  return tasks.start(taskOwner(ctx), (task) =>
    runToolCall(d, params, {
      ...access,
      toolCallId: task.taskId,
      cancel: task.signal,
      notifier: new CallNotifier({
        send: async (n) => {
          if (n.method === 'notifications/progress') task.update(String(n.params.message ?? ''));
        },
        requestId: task.taskId,
        progressToken: task.taskId,
        codexEvents: d.options.codexEvents,
        heartbeatMs: 0,
        logger: d.logger,
      }),
      channel: { elicit: (elicitParams, signal) => task.ask(elicitParams, signal), capabilities: () => capabilities },
    }),
  );
}
