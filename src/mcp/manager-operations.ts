// Every request the manager makes of one upstream on a caller's behalf: tool calls (plain and
// task-augmented), the tasks they create, resources and subscriptions, prompts, completion, logging,
// instructions and roots. The manager is the only road to an upstream: each operation applies the
// server's tool filter and the caller's rights here, once, and no product ever holds a raw client.
import type { CallToolResult, CompleteRequest, CompleteResult, GetPromptResult, LoggingLevel, Prompt, ReadResourceResult, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import type { McpClient, PassThroughResult, RequestOptions, TaskMethod, UpstreamCaller, UpstreamIdentityKind } from '../mcp-client/index.js';
import { callerIdentityKind } from '../config/index.js';
import { errorMessage, McpClientError, type Logger } from '../util/index.js';
import type { CallerConnections } from './caller-connections.js';
import type { CallerServers } from './caller-servers.js';
import { raceSignal } from './manager-errors.js';
import { resubscribe } from './resubscribe.js';
import { routeKey, type ElicitationRouter } from './elicitation-router.js';
import type { ManagedServer } from './managed-server.js';
import type { CallOptions, OperationOptions, ReadOptions } from './manager-types.js';
import { toolDisabledError } from './tool-filter.js';
import { checkedResourceUri, checkPrompt, checkTool, unknownResourceError } from './upstream-access.js';

const NO_COMPLETIONS: CompleteResult = { completion: { values: [], hasMore: false } };

/** Whether a server offers task-augmented tools/call (`capabilities.tasks.requests.tools.call`, 2025-11-25). */
function offersToolTasks(capabilities: { tasks?: unknown } | undefined): boolean {
  const tasks = capabilities?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return tasks?.requests?.tools?.call !== undefined;
}

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
  protected abstract templatesOf(server: string, options: Reach): Promise<readonly string[]>;
  /** The servers that act as each caller; undefined when nothing is served to callers. */
  protected abstract readonly callerServers: CallerServers | undefined;

  protected get callers(): CallerConnections | undefined {
    return this.callerServers?.connections;
  }

  /** Whether `serverName` is reached as each caller (identity = "caller", while serving callers). */
  actsAsCaller(serverName: string): boolean {
    return this.callerServers !== undefined && callerIdentityKind(this.managed(serverName).config) !== undefined;
  }

  /** Which identity a request of `caller` reaches `serverName` with: the operator's, or the caller's by its kind. */
  identityOf(serverName: string, caller?: UpstreamCaller): UpstreamIdentityKind {
    if (!caller || !this.actsAsCaller(serverName)) return 'operator';
    return callerIdentityKind(this.managed(serverName).config) ?? 'operator';
  }

  /** A tool name under the prefix of a caller server `caller` could not connect to: that server and the raw name (see CallerServers.unreachedTool). */
  unreachedCallerTool(name: string, caller: UpstreamCaller): { server: string; tool: string } | undefined {
    return this.callerServers?.unreachedTool(name, caller.key);
  }

  /** A sign-in link for `caller` to a server that acts as each caller (bound to that caller, single use, short-lived). */
  upstreamLogin(serverName: string, caller: UpstreamCaller): Promise<{ url: string; id: string }> {
    return this.callerSide(serverName).identities.beginLogin(this.managed(serverName).config, caller);
  }

  /** Resolves once `caller` has signed in to `serverName` (through any replica); rejects when `signal` aborts. */
  waitForUpstreamLogin(serverName: string, caller: UpstreamCaller, signal: AbortSignal): Promise<void> {
    return this.callerSide(serverName).identities.waitForLogin(this.managed(serverName).config, caller, signal);
  }

  private callerSide(serverName: string): CallerServers {
    if (!this.actsAsCaller(serverName)) throw new McpClientError('unknown_server', `MCP server '${serverName}' does not act as each caller`);
    return this.callerServers!;
  }

  /**
   * The client a request reaches `serverName` through: for a server that acts as each caller, the
   * caller's own connection (a request without a caller is refused); else the server's one shared
   * connection once ready (starting it if lazy; failing at once for a failed server).
   */
  protected async client(serverName: string, options: Reach = {}): Promise<McpClient> {
    const server = this.managed(serverName);
    if (this.callers && callerIdentityKind(server.config) !== undefined) {
      if (!options.caller) {
        throw new McpClientError(
          'caller_required',
          `MCP server '${serverName}' acts as each caller (identity = "caller"), and this request has no caller to act as (stdio, or the static token): call it with an OAuth access token`,
        );
      }
      return this.callers.client(server.config, options.caller, options.signal);
    }
    return server.readyClient() ?? raceSignal(server.clientForCall(), options.signal);
  }

  /** `fn` on the client for `serverName`; a caller's connection that fails to authenticate answers as its credential says (a new login link). */
  protected async use<T>(serverName: string, options: Reach, fn: (client: McpClient) => Promise<T>): Promise<T> {
    const client = await this.client(serverName, options);
    return this.answered(serverName, options, fn(client));
  }

  /**
   * Keep `serverName` from being stopped by stop_after_idle_sec until the returned function is called
   * (a task it runs that a client may still ask about). A server that acts as each caller has no
   * shared connection to keep: nothing to do.
   */
  holdServer(serverName: string): () => void {
    return this.actsAsCaller(serverName) ? () => {} : this.managed(serverName).hold();
  }

  /** Start `serverName` if it is not running and wait until it is ready (or fails); `caller`: that caller's connection. */
  async waitForServer(serverName: string, options: Reach = {}): Promise<void> {
    await this.client(serverName, options);
  }

  /** Call a tool by server and raw name: the tool filter and the caller's rights apply. */
  async callServerTool(serverName: string, tool: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    const { server, client } = await this.toolClient(serverName, tool, options);
    const release = this.router.enter(routeKey(serverName, this.actsAsCaller(serverName) ? options.caller?.key : undefined), options.onElicitation);
    try {
      return await this.answered(serverName, options, server.calls.track(client.callTool(tool, args, { signal: options.signal, timeoutMs: options.timeoutMs, onProgress: options.onProgress, meta: options.meta, inputs: options.inputs, traceParent: options.traceParent })));
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
    const release = this.router.enter(routeKey(serverName, this.actsAsCaller(serverName) ? options.caller?.key : undefined), options.onElicitation);
    try {
      return await this.answered(serverName, options, server.calls.track(client.callToolAsTask({ name: tool, ...params }, { signal: options.signal, onProgress: options.onProgress, traceParent: options.traceParent })));
    } finally {
      release();
    }
  }

  /** Whether `tool` of `serverName` may run as a task, from its live definition (the server started if need be). */
  async toolTasks(serverName: string, tool: string, options: Reach = {}): Promise<ToolTasks> {
    const client = await this.client(serverName, options).catch(() => undefined);
    if (!client || !offersToolTasks(client.capabilities)) return { offered: false, support: undefined };
    const definition = this.liveTools(serverName, options.caller)?.find((t) => t.name === tool);
    return { offered: true, support: (definition?.execution as { taskSupport?: ToolTasks['support'] } | undefined)?.taskSupport };
  }

  /** tasks/get, tasks/result or tasks/cancel of the server's task `taskId`. */
  async taskRequest(serverName: string, method: Exclude<TaskMethod, 'tasks/list'>, taskId: string, options: OperationOptions = {}): Promise<PassThroughResult> {
    return this.use(serverName, options, (client) => client.taskRequest(method, { taskId }, requestOptions(options)));
  }

  async listResources(serverName: string, options: Reach = {}): Promise<Resource[]> {
    return this.use(serverName, options, (client) => client.listResources({ signal: options.signal }));
  }

  async listResourceTemplates(serverName: string, options: Reach = {}): Promise<ResourceTemplateType[]> {
    return this.use(serverName, options, (client) => client.listResourceTemplates({ signal: options.signal }));
  }

  /**
   * The URI `server` is asked about `uri` by for this caller: `uri` itself for an unrestricted one;
   * else its canonical form, once it and what it names through the server's templates are within
   * the caller's rights (unknown_resource otherwise).
   */
  resourceUri(serverName: string, uri: string, options: OperationOptions = {}): Promise<string> {
    return checkedResourceUri(options.access, serverName, uri, () => this.templatesOf(serverName, options));
  }

  /** resources/read of `uri` as {@link resourceUri} spells it. */
  async readResource(serverName: string, uri: string, options: ReadOptions = {}): Promise<ReadResourceResult> {
    const asked = await this.resourceUri(serverName, uri, options);
    return this.use(serverName, options, (client) => client.readResource(asked, { signal: options.signal, inputs: options.inputs, traceParent: options.traceParent }));
  }

  /**
   * resources/subscribe (on a 2026-07-28 server: the listen stream names the resource). On a
   * caller's own connection it is kept with the connection (see CallerConnections).
   */
  async subscribe(serverName: string, uri: string, options: OperationOptions = {}): Promise<void> {
    const asked = await this.resourceUri(serverName, uri, options);
    await this.use(serverName, options, (client) => client.subscribe(asked, requestOptions(options)));
    if (options.caller && this.actsAsCaller(serverName)) this.callers!.subscribed(serverName, options.caller.key, asked);
  }

  /** resources/unsubscribe; on a caller's connection that was lost meanwhile, nothing is left to end upstream. */
  async unsubscribe(serverName: string, uri: string, options: OperationOptions = {}): Promise<void> {
    if (options.caller && this.actsAsCaller(serverName) && !this.callers!.unsubscribed(serverName, options.caller.key, uri)) return;
    await this.use(serverName, options, (client) => client.unsubscribe(uri, requestOptions(options)));
  }

  /** `uris` subscribed again on `serverName`'s shared connection (after it reconnected or got a new upstream session); a URI that fails is logged. */
  async resubscribe(serverName: string, uris: readonly string[]): Promise<void> {
    await this.use(serverName, {}, (client) => resubscribe(client, uris, { server: serverName, logger: this.logger, connection: 'shared' }));
  }

  /** One server's prompts in its own order; none while it is unavailable. */
  async listPrompts(serverName: string, options: Reach = {}): Promise<Prompt[]> {
    let client;
    try {
      client = await this.client(serverName, options);
    } catch (err) {
      if (err instanceof McpClientError && err.code === 'server_unavailable') return [];
      throw err;
    }
    return client.listPrompts({ signal: options.signal });
  }

  async getPrompt(serverName: string, prompt: string, args: Record<string, string> | undefined, options: ReadOptions = {}): Promise<GetPromptResult> {
    checkPrompt(options.access, serverName, prompt);
    return this.use(serverName, options, (client) => client.getPrompt(prompt, args, { signal: options.signal, inputs: options.inputs, traceParent: options.traceParent }));
  }

  /** completion/complete for a prompt or resource template of `serverName`; none from a server without completion. */
  async complete(serverName: string, params: CompleteRequest['params'], options: OperationOptions = {}): Promise<CompleteResult> {
    const { ref } = params;
    if (ref.type === 'ref/prompt') checkPrompt(options.access, serverName, ref.name);
    else if (options.access && !options.access.unrestricted && !options.access.allows(serverName, ref.uri)) throw unknownResourceError(ref.uri);
    return this.use(serverName, options, async (client) => (client.capabilities?.completions ? client.complete(params, requestOptions(options)) : NO_COMPLETIONS));
  }

  /** The server's instructions (a server stopped for being idle: its last ones, without starting it); undefined while it is unavailable. */
  async instructions(serverName: string, options: Reach = {}): Promise<string | undefined> {
    try {
      const known = this.actsAsCaller(serverName) ? undefined : this.managed(serverName).knownInstructions();
      if (known) return known.instructions;
      return (await this.client(serverName, options)).instructions;
    } catch {
      return undefined;
    }
  }

  /** logging/setLevel on `serverName` when it offers logging; false when it does not. */
  async setLoggingLevel(serverName: string, level: LoggingLevel, options: OperationOptions = {}): Promise<boolean> {
    return this.use(serverName, options, async (client) => {
      if (!client.capabilities?.logging) return false;
      await client.setLoggingLevel(level, requestOptions(options));
      return true;
    });
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
   * need be; the caller's own connection for a server that acts as each caller), then its live list.
   * A call that waited for a server a reload replaced meanwhile goes to the replacement.
   */
  private async toolClient(serverName: string, tool: string, options: CallOptions): Promise<{ server: ManagedServer; client: McpClient }> {
    for (;;) {
      const server = this.managed(serverName);
      checkTool(options.access, serverName, tool);
      if (!server.filter.allows(tool)) throw toolDisabledError(serverName, tool);
      let client = this.actsAsCaller(serverName) ? undefined : server.readyClient();
      if (!client) {
        try {
          client = await this.client(serverName, options);
        } catch (err) {
          if (!options.signal?.aborted && this.managed(serverName) !== server) continue;
          throw err;
        }
      }
      const live = this.liveTools(serverName, options.caller);
      if (live && !live.some((t) => t.name === tool)) throw new McpClientError('unknown_tool', `MCP server '${serverName}' no longer offers tool '${tool}'`);
      return { server, client };
    }
  }

  /** `work` on `serverName`; a caller's connection that fails to authenticate answers as its credential says (a new login link). */
  protected async answered<T>(serverName: string, options: Reach, work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (err) {
      if (options.caller && this.actsAsCaller(serverName)) throw await this.callers!.authFailed(this.managed(serverName).config, options.caller, err);
      throw err;
    }
  }

  /** The tools `serverName` lists live now: the caller's own list on a caller's connection. */
  private liveTools(serverName: string, caller: UpstreamCaller | undefined): readonly Tool[] | undefined {
    if (this.actsAsCaller(serverName)) return caller ? this.callers!.toolsOf(serverName, caller.key)?.tools : undefined;
    const live = this.managed(serverName).tools;
    return live?.source === 'live' ? live.tools : undefined;
  }
}

/** What reaching one upstream takes: its abort signal, and the caller it is for. */
export type Reach = Pick<OperationOptions, 'signal' | 'caller'>;

function requestOptions(options: OperationOptions): RequestOptions {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.traceParent ? { traceParent: options.traceParent } : {}) };
}
