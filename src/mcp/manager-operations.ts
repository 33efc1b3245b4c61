// Every request the manager makes of one upstream on a caller's behalf: tool calls (plain and
// task-augmented), the tasks they create, resources and subscriptions, prompts, completion, logging,
// instructions and roots. The manager is the only road to an upstream: each operation applies the
// server's tool filter and the caller's rights here, once, and no product ever holds a raw client.
import type { CallToolResult, CompleteRequest, CompleteResult, GetPromptResult, LoggingLevel, Prompt, ReadResourceResult, Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import { offersToolTasks, type McpClient, type PassThroughResult, type RequestOptions, type TaskMethod } from '../mcp-client/index.js';
import { errorMessage, McpClientError, type Logger } from '../util/index.js';
import { raceSignal } from './manager-errors.js';
import type { ElicitationRouter } from './elicitation-router.js';
import type { ManagedServer } from './managed-server.js';
import type { CallOptions, OperationOptions, ReadOptions } from './manager-types.js';
import { toolDisabledError } from './tool-filter.js';
import { checkedResourceUri, checkPrompt, checkTool, unknownResourceError } from './upstream-access.js';

const NO_COMPLETIONS: CompleteResult = { completion: { values: [], hasMore: false } };

/** What a tool says about running as a task (2025-11-25 `execution.taskSupport`), and whether its server offers tasks at all. */
export interface ToolTasks {
  offered: boolean;
  support: 'forbidden' | 'optional' | 'required' | undefined;
}

/** The params of a task-augmented tools/call, as its caller built them (the tool by its raw name). */
export interface TaskCallParams {
  arguments?: Record<string, unknown>;
  task: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export abstract class ManagerOperations {
  protected abstract readonly logger: Logger;
  protected abstract readonly router: ElicitationRouter;
  /** The managed server `name` (unknown_server for a name not configured). */
  protected abstract managed(name: string): ManagedServer;
  /** Servers ready now, in config order. */
  abstract readyServers(): string[];
  /** The templates `server` lists (cached until its resources change). */
  protected abstract templatesOf(server: string, signal?: AbortSignal): Promise<readonly string[]>;

  /** The server's client once ready (starting it if lazy); fails at once for a failed server. */
  protected async client(serverName: string, signal?: AbortSignal): Promise<McpClient> {
    const server = this.managed(serverName);
    return server.readyClient() ?? raceSignal(server.clientForCall(), signal);
  }

  /** Start `serverName` if it is not running and wait until it is ready (or fails). */
  async waitForServer(serverName: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.client(serverName, options.signal);
  }

  /** Call a tool by server and raw name: the tool filter and the caller's rights apply. */
  async callServerTool(serverName: string, tool: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    const { server, client } = await this.toolClient(serverName, tool, options);
    const release = this.router.enter(serverName, options.onElicitation);
    try {
      return await server.calls.track(client.callTool(tool, args, { signal: options.signal, timeoutMs: options.timeoutMs, onProgress: options.onProgress, meta: options.meta, inputs: options.inputs, traceParent: options.traceParent }));
    } finally {
      release();
    }
  }

  /**
   * A task-augmented tools/call (2025-11-25), answered as the server answers it: a CreateTaskResult,
   * or the result when it ran the call at once. The same filter and rights as a plain call.
   */
  async callServerToolAsTask(serverName: string, tool: string, params: TaskCallParams, options: CallOptions = {}): Promise<PassThroughResult> {
    const { server, client } = await this.toolClient(serverName, tool, options);
    const release = this.router.enter(serverName, options.onElicitation);
    try {
      return await server.calls.track(client.callToolAsTask({ name: tool, ...params }, { signal: options.signal, onProgress: options.onProgress, traceParent: options.traceParent }));
    } finally {
      release();
    }
  }

  /** Whether `tool` of `serverName` may run as a task, from its live definition (the server started if need be). */
  async toolTasks(serverName: string, tool: string, options: { signal?: AbortSignal } = {}): Promise<ToolTasks> {
    const client = await this.client(serverName, options.signal).catch(() => undefined);
    if (!client || !offersToolTasks(client.capabilities)) return { offered: false, support: undefined };
    const live = this.managed(serverName).tools;
    const definition = live?.source === 'live' ? live.tools.find((t) => t.name === tool) : undefined;
    return { offered: true, support: (definition?.execution as { taskSupport?: ToolTasks['support'] } | undefined)?.taskSupport };
  }

  /** tasks/get, tasks/result or tasks/cancel of the server's task `taskId`. */
  async taskRequest(serverName: string, method: Exclude<TaskMethod, 'tasks/list'>, taskId: string, options: OperationOptions = {}): Promise<PassThroughResult> {
    const client = await this.client(serverName, options.signal);
    return client.taskRequest(method, { taskId }, requestOptions(options));
  }

  async listResources(serverName: string, options: { signal?: AbortSignal } = {}): Promise<Resource[]> {
    return (await this.client(serverName, options.signal)).listResources({ signal: options.signal });
  }

  async listResourceTemplates(serverName: string, options: { signal?: AbortSignal } = {}): Promise<ResourceTemplateType[]> {
    return (await this.client(serverName, options.signal)).listResourceTemplates({ signal: options.signal });
  }

  /**
   * The URI `server` is asked about `uri` by for this caller: `uri` itself for an unrestricted one;
   * else its canonical form, once it and what it names through the server's templates are within
   * the caller's rights (unknown_resource otherwise).
   */
  resourceUri(serverName: string, uri: string, options: OperationOptions = {}): Promise<string> {
    return checkedResourceUri(options.access, serverName, uri, () => this.templatesOf(serverName, options.signal));
  }

  /** resources/read of `uri` as {@link resourceUri} spells it. */
  async readResource(serverName: string, uri: string, options: ReadOptions = {}): Promise<ReadResourceResult> {
    const asked = await this.resourceUri(serverName, uri, options);
    const client = await this.client(serverName, options.signal);
    return client.readResource(asked, { signal: options.signal, inputs: options.inputs, traceParent: options.traceParent });
  }

  /** resources/subscribe (on a 2026-07-28 server: the listen stream names the resource). */
  async subscribe(serverName: string, uri: string, options: OperationOptions = {}): Promise<void> {
    const asked = await this.resourceUri(serverName, uri, options);
    await (await this.client(serverName, options.signal)).subscribe(asked, requestOptions(options));
  }

  async unsubscribe(serverName: string, uri: string, options: OperationOptions = {}): Promise<void> {
    await (await this.client(serverName, options.signal)).unsubscribe(uri, requestOptions(options));
  }

  /** Whether `serverName` offers resource subscriptions (false while it is unavailable). */
  async offersSubscriptions(serverName: string, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    const client = await this.client(serverName, options.signal).catch(() => undefined);
    return client?.capabilities?.resources?.subscribe === true;
  }

  /** One server's prompts in its own order; none while it is unavailable. */
  async listPrompts(serverName: string, options: { signal?: AbortSignal } = {}): Promise<Prompt[]> {
    let client;
    try {
      client = await this.client(serverName, options.signal);
    } catch (err) {
      if (err instanceof McpClientError && err.code === 'server_unavailable') return [];
      throw err;
    }
    return client.listPrompts({ signal: options.signal });
  }

  async getPrompt(serverName: string, prompt: string, args: Record<string, string> | undefined, options: ReadOptions = {}): Promise<GetPromptResult> {
    checkPrompt(options.access, serverName, prompt);
    const client = await this.client(serverName, options.signal);
    return client.getPrompt(prompt, args, { signal: options.signal, inputs: options.inputs, traceParent: options.traceParent });
  }

  /** completion/complete for a prompt or resource template of `serverName`; none from a server without completion. */
  async complete(serverName: string, params: CompleteRequest['params'], options: OperationOptions = {}): Promise<CompleteResult> {
    const { ref } = params;
    if (ref.type === 'ref/prompt') checkPrompt(options.access, serverName, ref.name);
    else if (options.access && !options.access.unrestricted && !options.access.allows(serverName, ref.uri)) throw unknownResourceError(ref.uri);
    const client = await this.client(serverName, options.signal);
    if (!client.capabilities?.completions) return NO_COMPLETIONS;
    return client.complete(params, requestOptions(options));
  }

  /** The server's instructions; undefined while it is unavailable. */
  async instructions(serverName: string, options: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    return (await this.client(serverName, options.signal).catch(() => undefined))?.instructions;
  }

  /** logging/setLevel on `serverName` when it offers logging; false when it does not. */
  async setLoggingLevel(serverName: string, level: LoggingLevel, options: OperationOptions = {}): Promise<boolean> {
    const client = await this.client(serverName, options.signal);
    if (!client.capabilities?.logging) return false;
    await client.setLoggingLevel(level, requestOptions(options));
    return true;
  }

  /** notifications/roots/list_changed to every ready server (a failure is logged, never thrown). */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all(
      this.readyServers().map(async (name) => {
        try {
          await (await this.client(name)).sendRootsListChanged();
        } catch (err) {
          this.logger.warn(`notifications/roots/list_changed to MCP server '${name}' failed: ${errorMessage(err)}`);
        }
      }),
    );
  }

  /**
   * The server and client for a call of `tool`: filter and rights first, then the server (started if
   * need be), then its live list. A call that waited for a server a reload replaced meanwhile goes to
   * the replacement.
   */
  private async toolClient(serverName: string, tool: string, options: CallOptions): Promise<{ server: ManagedServer; client: McpClient }> {
    for (;;) {
      const server = this.managed(serverName);
      checkTool(options.access, serverName, tool);
      if (!server.filter.allows(tool)) throw toolDisabledError(serverName, tool);
      let client = server.readyClient();
      if (!client) {
        try {
          client = await raceSignal(server.clientForCall(), options.signal);
        } catch (err) {
          if (!options.signal?.aborted && this.managed(serverName) !== server) continue;
          throw err;
        }
      }
      const live = server.tools;
      if (live?.source === 'live' && !live.tools.some((t) => t.name === tool)) {
        throw new McpClientError('unknown_tool', `MCP server '${serverName}' no longer offers tool '${tool}'`);
      }
      return { server, client };
    }
  }
}

function requestOptions(options: OperationOptions): RequestOptions {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.traceParent ? { traceParent: options.traceParent } : {}) };
}
