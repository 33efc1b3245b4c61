// The agent as a product the host serves: Codex's `codex` and `codex-reply` tools (and, for 2026-07-28
// clients, empty prompt and resource lists), calls that may run as tasks, Codex's initialize extras and
// refusal texts, and a cancelled call that still answers ("Turn aborted."). The host does the rest.
import { RELATED_TASK_META_KEY, type CallToolRequestParams, type InputRequest } from '@modelcontextprotocol/server';
import type { Product, Req, TaskContext } from '../mcp-host/index.js';
import { LEGACY_REVISIONS } from '../protocol/values.js';
import type { Logger } from '../util/index.js';
import { CallNotifier } from './call-notifier.js';
import { CodexTaskWork } from './codex-task-work.js';
import { shutdownAgent } from './shutdown.js';
import { codexTools } from './tool-definitions.js';
import type { CodexAgent } from './tool-call.js';
import { accessOf, dispatchToolCall, refuseCall, refuseTask, runToolCall, type ToolDispatch } from './tool-dispatch.js';
import * as T from './texts.js';

const GUARD_TEXTS = { requestIdRunning: T.REQUEST_ID_RUNNING, initializeTwice: T.INITIALIZE_TWICE, methodNotFound: T.methodNotFound };

export interface CodexServerOptions {
  name: string;
  title: string;
  version: string;
  /** Prefix of `serverInfo.user_agent`; the client's "name; version" is appended as Codex did. */
  userAgent: string;
  /** `mcp_server.codex_events`: send `codex/event` notifications. */
  codexEvents: boolean;
  /** Progress heartbeat while a turn runs, for clients that sent a progressToken (0: off). */
  heartbeatMs: number;
}

export function codexProduct(agent: CodexAgent, options: CodexServerOptions, logger: Logger): Product {
  const d: ToolDispatch = { agent, options, logger };
  return {
    info: { name: options.name, title: options.title, version: options.version },
    logAs: { name: 'mcp-server' },
    // A 2026-07-28 client may ask for every list (with its cache hints): empty prompts and resources.
    capabilities: (era) => (era === 'legacy' ? { tools: { listChanged: true } } : { tools: { listChanged: true }, prompts: {}, resources: {} }),
    // Codex's server accepted these and answered anything else with the latest.
    legacyVersions: LEGACY_REVISIONS,
    handlers: {
      'tools/list': { handle: (_params, req) => ({ tools: codexTools().filter((t) => req.view.allowsOwn(t.name)) }) },
      'tools/call': {
        asks: true,
        handle: (params, req) => {
          const call = params as CallToolRequestParams;
          return refuseCall(call, accessOf(req)) ?? dispatchToolCall(d, call, req);
        },
      },
      'prompts/list': { era: 'modern', handle: () => ({ prompts: [] }) },
      'resources/list': { era: 'modern', handle: () => ({ resources: [] }) },
      'resources/templates/list': { era: 'modern', handle: () => ({ resourceTemplates: [] }) },
    },
    tasks: { start: async (params, req, task) => (await refuseTask(agent, params, accessOf(req))) ?? new CodexTaskWork(task, (params.task as { ttl?: unknown } | undefined)?.ttl, (handle) => runAsTask(d, params, req, task, handle)) },
    serverInfoFor: (clientInfo) => ({ user_agent: `${options.userAgent} (${clientInfo.name}; ${clientInfo.version})` }),
    texts: GUARD_TEXTS,
    answersCancelled: true,
    close: () => shutdownAgent(agent, logger),
  };
}

/**
 * The call as a task: its turn runs on without a request. What it tells its client goes on a 2025
 * session's own stream (naming the task; a 2026-07-28 client has none), its progress becomes the
 * task's status message, its approvals the task's questions.
 */
function runAsTask(d: ToolDispatch, params: CallToolRequestParams, req: Req, task: TaskContext, handle: Parameters<ConstructorParameters<typeof CodexTaskWork>[2]>[0]) {
  const related = { [RELATED_TASK_META_KEY]: { taskId: task.id } };
  return runToolCall(d, params, {
    ...accessOf(req),
    toolCallId: task.id,
    cancel: handle.signal,
    notifier: new CallNotifier({
      send: async (n) => {
        if (n.method === 'notifications/progress') return handle.update(String(n.params.message ?? ''), /^waiting/.test(String(n.params.message)));
        req.session?.notify({ method: n.method, params: { ...n.params, _meta: { ...(n.params._meta as object | undefined), ...related } } });
      },
      requestId: task.id,
      progressToken: task.id,
      codexEvents: d.options.codexEvents,
      heartbeatMs: 0,
      logger: d.logger,
    }),
    channel: {
      elicit: (elicitParams, signal) => task.ask({ method: 'elicitation/create', params: elicitParams } as InputRequest, { signal }),
      capabilities: () => req.clientCapabilities,
    },
  });
}
