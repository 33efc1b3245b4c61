// McpClient: everything about talking to ONE MCP server — the lifecycle, the tools operations and the
// recovery report. Each operation goes through runOperation; generations and recovery live in
// ConnectionKeeper; resources, prompts and the rest in McpServerApi.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import { startupTimeoutMs as configStartupMs, toolTimeoutMs as configToolMs } from '../config/index.js';
import { errorMessage } from '../util/index.js';
import { mcpSpan, NOOP_TELEMETRY, tracingFetch, type Telemetry, type TraceContext } from '../util/telemetry/index.js';
import { classifyError } from './classify-error.js';
import { connectionSetup, createKeeper, listAllTools, newerCredentials } from './client-setup.js';
import type { Connection, ConnectionSetup } from './connection.js';
import type { ConnectionKeeper } from './connection-keeper.js';
import { DeadlineWheel } from './deadline-wheel.js';
import { McpClientError } from './errors.js';
import { callToolOn, KnownTools, type CallToolOptions } from './tool-call.js';
import type { OperationSpec } from './operation.js';
import { inClientSpan, runOperation } from './operation.js';
import type { ListCacheHint } from './pagination.js';
import type { McpClientDeps, McpClientOptions, McpClientState, ReadyInfo, RequestOptions } from './types.js';
import { McpServerApi, type OperationFn } from './server-api.js';

export type { CallToolOptions } from './tool-call.js';

type RunOptions = RequestOptions & Pick<OperationSpec, 'onProgress' | 'progress'> & {
  /** What the request's span names (the tool, the prompt). */
  spanParams?: Record<string, unknown>;
};

/** A client for one configured server; nothing starts until `connect()`. */
export function createMcpClient(config: McpServerConfig, deps: McpClientDeps, options: McpClientOptions = {}): McpClient {
  return new McpClient(config, deps, options);
}

/**
 * One MCP server connection (stdio through a launcher, Streamable HTTP, or legacy HTTP+SSE). Every
 * operation has a deadline (the server's `tool_timeout_sec`, extended by progress), is retried once on
 * a transient failure, refreshes OAuth tokens once on a 401 and reopens an expired session once on a
 * 404, and fails with an {@link McpClientError}.
 *
 * @example
 * ```ts
 * const { config: server } = parseMcpServerConfig('docs', { url: 'https://example.com/mcp' });
 * const client = createMcpClient(server, { logger: nullLogger });
 * await client.connect();
 * const tools = await client.listTools();
 * await client.close();
 * ```
 */
export class McpClient extends McpServerApi {
  readonly serverName: string;
  private state: McpClientState = { kind: 'connecting' };
  private keeper: ConnectionKeeper | undefined;
  private connecting: Promise<ReadyInfo> | undefined;
  private readonly tools = new KnownTools();
  private readonly closeController = new AbortController();
  /** Every operation's deadline: one timer for them all; close() ends those still running. */
  private readonly deadlines = new DeadlineWheel();
  private readonly background = new Set<Promise<void>>();
  /** Operations running now (a pool closes an idle connection only when none is). */
  activeOperations = 0;
  /** When the last operation ended (or the client was made): how long it has had nothing running. */
  idleSince = Date.now();

  /** Something runs on it (an operation) or listens through it (a resource subscription): not idle, for a pool closing idle connections. */
  get busy(): boolean {
    return this.activeOperations > 0 || this.subscriptions > 0;
  }
  private readonly setup: ConnectionSetup;
  private readonly telemetry: Telemetry;

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: McpClientDeps,
    private readonly options: McpClientOptions = {},
  ) {
    super();
    this.serverName = config.name;
    this.telemetry = deps.telemetry ?? NOOP_TELEMETRY;
    this.setup = connectionSetup(config, deps, options, {
      resourceSubscriptions: this.subscribedUris,
      staleLists: this.staleLists,
      fetch: tracingFetch(deps.fetch, this.telemetry),
      onEnded: (connection, reason) => this.onConnectionEnded(connection, reason),
    });
  }

  get status(): McpClientState {
    return this.state;
  }

  get serverInfo(): ReadyInfo['serverInfo'] {
    return this.state.kind === 'ready' ? this.state.serverInfo : undefined;
  }

  get capabilities(): ReadyInfo['capabilities'] | undefined {
    return this.state.kind === 'ready' ? this.state.capabilities : undefined;
  }

  get instructions(): string | undefined {
    return this.state.kind === 'ready' ? this.state.instructions : undefined;
  }

  /** Start the server (or open the HTTP session) and initialize within the startup deadline. */
  connect(options: RequestOptions = {}): Promise<ReadyInfo> {
    if (this.state.kind === 'closed') return Promise.reject(closedError());
    if (this.state.kind === 'ready') return Promise.resolve(this.readyInfo());
    this.connecting ??= this.doConnect(options).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Every tool, following nextCursor (at most 100 pages / 10,000 tools). */
  async listTools(options: RequestOptions = {}): Promise<Tool[]> {
    return (await this.fetchTools(options)).tools;
  }

  /** Every tool, with how long the list stays fresh (2026-07-28 `ttlMs` / `cacheScope`; none from 2025 servers). */
  async listToolsWithCache(options: RequestOptions = {}): Promise<{ tools: Tool[]; cache: ListCacheHint | undefined }> {
    const { tools, cache } = await this.fetchTools(options);
    return { tools, cache };
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, options: CallToolOptions = {}): Promise<CallToolResult> {
    const toolDefinition = this.tools.definition(name);
    // A progress token only when the caller listens (onProgress): a server then sends progress, and
    // each notification also extends the deadline. Nobody listening, the call pays for none of it.
    return this.run('tools/call', { ...options, spanParams: { name } }, (c, a, trace) => callToolOn(c, a, trace, { name, args, options, toolDefinition }));
  }

  async close(): Promise<void> {
    if (this.state.kind === 'closed') return;
    // Closing a client whose connection already failed (the host reacting to the failure) must not
    // turn the real reason into "shut down" for the calls still waiting on it.
    const failure = this.state.kind === 'failed' ? this.state.error : undefined;
    this.setState({ kind: 'closed' });
    const reason = failure ?? closedError();
    this.deadlines.close(reason);
    this.closeController.abort(reason);
    this.deps.launcher?.release?.();
    await this.keeper?.close();
    await Promise.allSettled([...this.background]);
  }

  protected async run<T>(label: string, options: RunOptions, fn: OperationFn<T>): Promise<T> {
    this.activeOperations += 1;
    const outcome = await this.runOutcome(label, options, fn).finally(() => {
      if (--this.activeOperations === 0) this.idleSince = Date.now();
    });
    if (outcome.recovered && label !== 'tools/list') this.refreshToolsAfterRecovery();
    return outcome.value;
  }

  private runOutcome<T>(label: string, options: RunOptions, fn: OperationFn<T>) {
    if (!this.telemetry.active) return this.runUntraced(label, options, fn, undefined);
    const http = this.isHttp();
    const parent = options.traceParent;
    const span = mcpSpan({ kind: 'client', method: label, params: options.spanParams, upstream: this.serverName, protocolVersion: this.readyProtocol(), transport: http ? 'tcp' : 'pipe', ...(parent ? { parent } : {}) });
    return inClientSpan(this.telemetry, span, http, (trace) => this.runUntraced(label, options, fn, trace));
  }

  private readyProtocol(): string | undefined {
    return this.state.kind === 'ready' ? this.state.protocolVersion : undefined;
  }

  private async runUntraced<T>(label: string, options: RunOptions, fn: OperationFn<T>, trace: TraceContext | undefined) {
    let used: Connection | undefined;
    const spec: OperationSpec = {
      label,
      kind: 'request',
      timeoutMs: options.timeoutMs ?? this.toolTimeoutMs(),
      maxTotalTimeoutMs: this.options.maxTotalTimeoutMs,
      // The client's close ends the operation through its wheel, not a listener per call.
      signals: [options.signal],
      wheel: this.deadlines,
      retryTransient: label === 'tools/list' && this.isHttp(),
      retryDelaysMs: this.options.retryDelaysMs,
      onProgress: options.onProgress,
      progress: options.progress,
    };
    return runOperation(
      spec,
      {
        classify: (err) => (used ? used.classify(err) : classifyError(err)),
        adoptCredentials: (err) => newerCredentials(this.keeper?.recipe, used, err),
        recoverSession: async (signal) => this.keeper?.recover(used, signal) ?? false,
        mayRecoverAgain: () => used?.wasShared === true,
      },
      async (attempt) => {
        // Ready and not recovering (nearly every call): no waiting, so no await on the way in.
        const connection = this.readyConnection() ?? (await this.acquire(attempt.signal));
        used = connection;
        return connection.use(() => fn(connection, attempt, trace));
      },
    );
  }

  private async doConnect(options: RequestOptions): Promise<ReadyInfo> {
    this.setState({ kind: 'connecting' });
    try {
      const keeper = (this.keeper ??= this.createKeeper());
      const { value } = await runOperation(
        {
          label: 'initialize',
          kind: 'handshake',
          timeoutMs: options.timeoutMs ?? this.startupTimeoutMs(),
          signals: [options.signal],
          wheel: this.deadlines,
          retryTransient: this.isHttp(),
          retryDelaysMs: this.options.retryDelaysMs,
        },
        { classify: (err) => classifyError(err) },
        (attempt) => keeper.open(attempt),
      );
      if (this.closeController.signal.aborted) {
        await value.close();
        throw closedError();
      }
      keeper.install(value);
      this.setState({ kind: 'ready', ...value.ready() });
      return value.ready();
    } catch (err) {
      const error = classifyError(err);
      if (this.state.kind !== 'closed') this.setState({ kind: 'failed', error });
      throw error;
    }
  }

  private createKeeper(): ConnectionKeeper {
    return createKeeper(this.config, this.deps, this.options, this.setup, this.closeController.signal, (connection) => {
      if (this.state.kind === 'ready') this.setState({ kind: 'ready', ...connection.ready() });
    });
  }

  private readyConnection(): Connection | undefined {
    return this.state.kind === 'ready' && this.keeper?.isRecovering === false ? this.keeper.connection : undefined;
  }

  private async acquire(signal: AbortSignal): Promise<Connection> {
    await this.keeper?.settled(signal);
    switch (this.state.kind) {
      case 'ready':
        return this.keeper!.connection!;
      case 'connecting':
        throw new McpClientError('not_ready', 'MCP client not initialized');
      case 'failed':
        throw this.state.error;
      case 'closed':
        throw closedError();
    }
  }

  private async fetchTools(options: RequestOptions): Promise<{ tools: Tool[]; changed: boolean; cache?: ListCacheHint }> {
    if (this.state.kind === 'ready' && !this.state.capabilities.tools) return { tools: [], changed: false };
    const { value: listed, recovered } = await this.runOutcome('tools/list', options, (c, a) => listAllTools(c.client, a));
    const { tools, cache } = listed;
    const changed = this.tools.update(tools);
    if (recovered) this.reportRecovery(tools, changed);
    return { tools, changed, cache };
  }

  private refreshToolsAfterRecovery(): void {
    const task = this.fetchTools({}).then(
      ({ tools, changed }) => this.reportRecovery(tools, changed),
      (err: unknown) => {
        this.deps.logger.warn(`MCP server '${this.serverName}': re-listing tools after session recovery failed: ${errorMessage(err)}`);
        this.reportRecovery(undefined, false);
      },
    );
    this.background.add(task);
    void task.finally(() => this.background.delete(task));
  }

  private reportRecovery(tools: Tool[] | undefined, toolsChanged: boolean): void {
    this.deps.handlers?.onSessionRecovered?.({ serverName: this.serverName, generation: this.keeper?.connection?.generation ?? 0, tools, toolsChanged });
  }

  private onConnectionEnded(connection: Connection, reason: McpClientError): void {
    if (connection !== this.keeper?.connection || this.state.kind !== 'ready') return;
    this.deps.logger.warn(`MCP server '${this.serverName}' connection failed: ${reason.message}`);
    this.setState({ kind: 'failed', error: reason });
  }

  private setState(state: McpClientState): void {
    this.state = state;
    this.deps.handlers?.onStateChange?.(state);
  }

  private readyInfo(): ReadyInfo {
    return this.keeper!.connection!.ready();
  }

  private isHttp(): boolean {
    return this.config.transport.type !== 'stdio';
  }

  private startupTimeoutMs(): number {
    return this.options.startupTimeoutMs ?? configStartupMs(this.config);
  }

  private toolTimeoutMs(): number {
    return this.options.toolTimeoutMs ?? configToolMs(this.config);
  }
}

function closedError(): McpClientError {
  return new McpClientError('closed', 'MCP client is shut down');
}
