// One MCP connection to the agent (a stdio pipe, or one HTTP session): the SDK server answering
// initialize / ping / tools/list / tools/call the way Codex's `mcp-server` did, the calls running on
// it, and their cancellation. Many calls run at once, each on its own thread; a call may run as a
// task (tasks/* answered from codex-tasks.ts).
import {
  ProtocolError,
  RELATED_TASK_META_KEY,
  type Server,
  type CallToolRequestParams,
  type CallToolResult,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { errorMessage, type Logger } from '../util/index.js';
import { createdTaskResult, RequestGuard, requestKey, TaskServer } from '../mcp-host/index.js';
import { CallNotifier } from './call-notifier.js';
import { CODEX_TASKS_CAPABILITY, CodexTasks, type TaskHandle } from './codex-tasks.js';
import { codexTools } from './tool-definitions.js';
import type { CodexAgent } from './tool-call.js';
import { accessOf, dispatchToolCall, refuseCall, runToolCall } from './tool-dispatch.js';
import * as T from './texts.js';

/** Codex's server accepted these and answered anything else with the latest. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const SERVED_METHODS = new Set(['initialize', 'ping', 'tools/list', 'tools/call', 'tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);
/** What the 2026-07-28 server answers beyond those (modern-codex.ts). */
const MODERN_METHODS = new Set(['server/discover', 'prompts/list', 'resources/list', 'resources/templates/list']);
const GUARD_TEXTS = { requestIdRunning: T.REQUEST_ID_RUNNING, initializeTwice: T.INITIALIZE_TWICE, methodNotFound: T.methodNotFound };
// setTimeout's ceiling: an approval may wait as long as the user needs.
const NO_TIMEOUT_MS = 2_147_483_647;
const AnyResult = z.unknown();
const TaskIdParams = z.looseObject({ taskId: z.string() });
const ListParams = z.looseObject({ cursor: z.string().optional() });

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

interface RunningCall {
  controller: AbortController;
}

export class CodexMcpServer {
  readonly server: Server;
  private readonly calls = new Map<string, RunningCall>();
  private clientCapabilities: unknown = undefined;
  private closeListeners: (() => void)[] = [];
  private readonly tasks: CodexTasks;

  constructor(
    private readonly agent: CodexAgent,
    private readonly options: CodexServerOptions,
    private readonly logger: Logger,
  ) {
    const info = { name: options.name, title: options.title, version: options.version };
    this.server = new TaskServer(info, { capabilities: { tools: { listChanged: true }, tasks: CODEX_TASKS_CAPABILITY }, supportedProtocolVersions: PROTOCOL_VERSIONS });
    this.tasks = new CodexTasks((params) => this.notifyClient('notifications/tasks/status', params), logger);
    this.server.setRequestHandler('initialize', (request) => {
      const { protocolVersion, capabilities, clientInfo } = request.params;
      this.clientCapabilities = capabilities;
      const negotiated = PROTOCOL_VERSIONS.includes(protocolVersion) ? protocolVersion : PROTOCOL_VERSIONS[0]!;
      this.server.transport?.setProtocolVersion?.(negotiated);
      return {
        protocolVersion: negotiated,
        capabilities: this.server.getCapabilities(),
        serverInfo: { ...info, user_agent: `${options.userAgent} (${clientInfo.name}; ${clientInfo.version})` },
      };
    });
    this.server.setRequestHandler('tools/list', (_request, ctx) => {
      const { view } = accessOf(this.agent, ctx);
      return { tools: codexTools().filter((t) => view.allowsOwn(t.name)) };
    });
    this.server.setRequestHandler('tools/call', (request, ctx) => (request.params.task ? this.startTask(request.params, ctx) : this.callTool(request.params, ctx)));
    this.server.setRequestHandler('tasks/get', { params: TaskIdParams }, (params) => this.tasks.get(params.taskId));
    this.server.setRequestHandler('tasks/result', { params: TaskIdParams }, (params, ctx) => this.tasks.result(params.taskId, ctx.mcpReq.signal));
    this.server.setRequestHandler('tasks/list', { params: ListParams }, () => ({ tasks: this.tasks.list() }));
    this.server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (params) => this.tasks.cancel(params.taskId));
    this.server.setNotificationHandler('notifications/cancelled', (n) => {
      if (n.params.requestId !== undefined) this.cancel(requestKey(n.params.requestId));
    });
    this.server.fallbackRequestHandler = async (request) => {
      throw new ProtocolError(-32601, T.methodNotFound(request.method), { method: request.method });
    };
    this.server.onerror = (err) => this.logger.debug('mcp connection error', { error: errorMessage(err) });
    this.server.onclose = () => {
      for (const call of this.calls.values()) call.controller.abort();
      this.tasks.closeAll();
      for (const listener of this.closeListeners.splice(0)) listener();
    };
  }

  /** Serve on `transport` (through the guard that gives Codex's protocol errors). */
  async connect(transport: Transport): Promise<RequestGuard> {
    const guard = new RequestGuard(transport, SERVED_METHODS, GUARD_TEXTS);
    await this.server.connect(guard);
    return guard;
  }

  /**
   * The guard for a stdio connection whose era its first message decides: the 2026-07-28 methods pass
   * until an `initialize` pins the connection to 2025; the rest get Codex's texts as before.
   */
  static stdioGuard(transport: Transport): RequestGuard {
    return new RequestGuard(transport, SERVED_METHODS, GUARD_TEXTS, MODERN_METHODS);
  }

  /** Runs once the connection has closed (stdin EOF, session deleted, close()). */
  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** Calls running now, those running as tasks included. */
  get runningCalls(): number {
    return this.calls.size + this.tasks.running;
  }

  /** Cancel every running call (their turns are interrupted, pending elicitations cancelled). */
  cancelAll(): void {
    for (const call of this.calls.values()) call.controller.abort();
    this.tasks.closeAll();
  }

  async close(): Promise<void> {
    this.cancelAll();
    await this.server.close();
  }

  /**
   * `notifications/cancelled`: the call's turn is interrupted and the call answers `Turn aborted.`.
   * Calls register synchronously when the SDK dispatches them, so a cancel cannot overtake its call;
   * ids of calls that already answered are stale and ignored.
   */
  private cancel(key: string): void {
    const call = this.calls.get(key);
    if (call) call.controller.abort();
    else this.logger.debug('cancellation for a request that is not running ignored', { key });
  }

  private async callTool(params: CallToolRequestParams, ctx: ServerContext): Promise<CallToolResult> {
    const refusal = refuseCall(params, accessOf(this.agent, ctx));
    if (refusal) return refusal;
    const key = requestKey(ctx.mcpReq.id);
    const controller = new AbortController();
    this.calls.set(key, { controller });
    const onConnectionGone = () => controller.abort();
    ctx.mcpReq.signal.addEventListener('abort', onConnectionGone, { once: true });
    const channel = {
      // Sent raw (not through elicitInput), so the codex_* fields reach the client untouched and a
      // legacy `{decision}` answer is read as it came.
      elicit: (elicitParams: Record<string, unknown>, signal: AbortSignal) =>
        ctx.mcpReq.send({ method: 'elicitation/create', params: elicitParams } as Parameters<typeof ctx.mcpReq.send>[0], AnyResult, { signal, timeout: NO_TIMEOUT_MS }),
      capabilities: () => this.clientCapabilities,
    };
    try {
      return await dispatchToolCall({ agent: this.agent, options: this.options, logger: this.logger }, params, ctx, controller.signal, channel);
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', onConnectionGone);
      this.calls.delete(key);
    }
  }

  /**
   * A task-augmented call: answered at once with a task, the call running on without a request. What
   * it tells its client goes on the connection's own stream (the GET stream over HTTP), naming the
   * task; its progress becomes the task's status message.
   */
  private startTask(params: CallToolRequestParams, ctx: ServerContext): CallToolResult {
    const access = accessOf(this.agent, ctx);
    const created = this.tasks.start(params.task, (task: TaskHandle) => {
      const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
      return runToolCall({ agent: this.agent, options: this.options, logger: this.logger }, params, {
        ...access,
        toolCallId: task.taskId,
        cancel: task.signal,
        notifier: new CallNotifier({
          send: async (n) => {
            if (n.method === 'notifications/progress') return task.update(String(n.params.message ?? ''), /^waiting/.test(String(n.params.message)));
            this.notifyClient(n.method, { ...n.params, _meta: { ...(n.params._meta as object | undefined), ...related } });
          },
          requestId: task.taskId,
          progressToken: task.taskId,
          codexEvents: this.options.codexEvents,
          heartbeatMs: 0,
          logger: this.logger,
        }),
        channel: {
          elicit: (elicitParams, signal) =>
            this.server.request({ method: 'elicitation/create', params: { ...(elicitParams as object), _meta: related } } as Parameters<Server['request']>[0], AnyResult, {
              signal,
              timeout: NO_TIMEOUT_MS,
            }),
          capabilities: () => this.clientCapabilities,
        },
      });
    });
    return createdTaskResult(created);
  }

  private notifyClient(method: string, params: Record<string, unknown>): void {
    this.server.notification({ method, params } as Parameters<Server['notification']>[0]).catch((err: unknown) =>
      this.logger.debug('notification not delivered', { method, error: errorMessage(err) }),
    );
  }
}
