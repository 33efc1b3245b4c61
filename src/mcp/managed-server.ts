// One configured server inside the manager: its lazily started, shared startup; its live or snapshot
// tool list; background retries with backoff; crash restarts; and list_changed refreshes.
import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import { startupTimeoutMs } from '../config/index.js';
import type { ListCacheHint, McpClient, McpClientHandlers, McpClientState, PriorDiscovery, ReadyInfo } from '../mcp-client/index.js';
import { errorMessage, formatDuration, McpClientError, SwitchboardError, type Logger } from '../util/index.js';
import { RestartPolicy, type RestartPolicyOptions } from './restart-policy.js';
import { eraAfterStartup, mayBeStaleVerdict, startWithRecordedEra, type ServerEra } from './server-era.js';
import { ListFreshness } from './list-freshness.js';
import type { SnapshotCache } from './snapshot-store.js';
import { toolFilterFor, type ToolFilter } from './tool-filter.js';
import { startupErrorDisplay, startupFailureText } from './startup-error.js';
import { CallDrain } from './call-drain.js';

export type ServerPhase =
  /** startup_mode = "lazy" and not used yet. */
  | { kind: 'idle' }
  | { kind: 'starting'; startedAt: number }
  | { kind: 'ready'; startupMs: number }
  /** `display` is the friendly text, `raw` Codex's `MCP startup failed: …`; `retryAt` null = given up. */
  | { kind: 'failed'; display: string; raw: string; error: unknown; retryAt: number | null }
  | { kind: 'cancelled' }
  | { kind: 'closed' };

/**
 * Makes the McpClient for one server, given the handlers the manager wants on it; `prior` is the era
 * verdict recorded for this server, adopted by the client instead of probing.
 */
export type ClientFactory = (config: McpServerConfig, handlers: McpClientHandlers, options?: { prior?: PriorDiscovery }) => McpClient | Promise<McpClient>;

export interface ManagedServerDeps {
  createClient: ClientFactory;
  logger: Logger;
  /** Handlers the host wants on every client; the managed server adds its own around them. */
  handlers: McpClientHandlers;
  restart?: RestartPolicyOptions;
  /** Called on every phase change (what the server contributes to the catalog may change with it). */
  onPhase(server: ManagedServer): void;
  /** Called when a ready server's live tool list is replaced (list_changed, session recovery). */
  onToolsChanged(server: ManagedServer): void;
}

export class ManagedServer {
  readonly name: string;
  /** The tool calls running on it (a reload that replaces it lets them finish first). */
  readonly calls = new CallDrain();
  private configValue: McpServerConfig;
  private filterValue: ToolFilter;
  /** Replaced by a reload: it only finishes its calls now, and is never started again. */
  private retired = false;
  private phaseValue: ServerPhase;
  private client: McpClient | undefined;
  private liveTools: Tool[] | undefined;
  private snapshotTools: Tool[] | undefined;
  private readonly freshness = new ListFreshness();
  private eraValue: ServerEra | undefined;
  private startup: Promise<McpClient> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private readonly policy: RestartPolicy;
  private readonly closed = new AbortController();
  /** Times it stopped after being ready (each one a restart, or the give-up). */
  private crashCount = 0;

  constructor(
    config: McpServerConfig,
    private readonly deps: ManagedServerDeps,
  ) {
    this.name = config.name;
    this.configValue = config;
    this.filterValue = toolFilterFor(config);
    this.phaseValue = { kind: 'idle' };
    this.policy = new RestartPolicy(deps.restart);
  }

  get config(): McpServerConfig {
    return this.configValue;
  }

  /** enabled_tools / disabled_tools, applied when listing and when calling. */
  get filter(): ToolFilter {
    return this.filterValue;
  }

  /** A reload changed only settings the connection takes as it is (server-diff.ts IN_PLACE_SETTINGS). */
  retune(config: McpServerConfig): void {
    this.configValue = config;
    this.filterValue = toolFilterFor(config);
  }

  /** A reload replaced or removed it: no more background retries or crash restarts (close() follows its drain). */
  retire(): void {
    this.retired = true;
    this.clearRetry();
  }

  get phase(): ServerPhase {
    return this.phaseValue;
  }

  /** The tools this server contributes now: live when ready, its snapshot while not yet started. */
  get tools(): { tools: Tool[]; source: 'live' | 'snapshot' } | undefined {
    const phase = this.phaseValue.kind;
    if (phase === 'ready' && this.liveTools) return { tools: this.liveTools, source: 'live' };
    if ((phase === 'idle' || phase === 'starting') && this.snapshotTools) return { tools: this.snapshotTools, source: 'snapshot' };
    return undefined;
  }

  /** A snapshot a warm start may answer with instead of waiting: one without a TTL, or within it. */
  hasFreshSnapshot(now = Date.now()): boolean {
    return this.snapshotTools !== undefined && this.freshness.snapshotFresh(now);
  }

  /** The live list's cache hint, in the form a snapshot records it. */
  get listCache(): SnapshotCache | undefined {
    return this.freshness.forSnapshot();
  }

  /**
   * The catalog is being used: a live list past its TTL is read again behind the answer (at most
   * one read at a time); true when one was started.
   */
  refreshIfStale(now = Date.now()): boolean {
    if (this.phaseValue.kind !== 'ready' || this.refreshing || !this.freshness.liveExpired(now)) return false;
    void this.refreshTools();
    return true;
  }

  get crashes(): number {
    return this.crashCount;
  }

  /** The protocol revision it negotiated last (or that its snapshot recorded). */
  get era(): ServerEra | undefined {
    return this.eraValue;
  }

  setSnapshot(tools: Tool[], era?: ServerEra, cache?: SnapshotCache): void {
    this.snapshotTools = tools;
    this.freshness.snapshotLoaded(cache);
    this.eraValue ??= era;
  }

  /** The server's client once ready: starts it if needed, shares a startup already running. */
  ensureStarted(): Promise<McpClient> {
    const phase = this.phaseValue;
    if (phase.kind === 'ready' && this.client) return Promise.resolve(this.client);
    if (phase.kind === 'closed') return Promise.reject(this.unavailable('the connection manager is shut down'));
    this.clearRetry();
    this.startup ??= this.runStartup().finally(() => {
      this.startup = undefined;
    });
    return this.startup;
  }

  /** Resolves when the current startup attempt (if any) has finished, whatever its outcome. */
  async settled(): Promise<void> {
    await this.startup?.catch(() => {});
  }

  /** The client when the server is ready now: what clientForCall resolves to, without a promise. */
  readyClient(): McpClient | undefined {
    return this.phaseValue.kind === 'ready' ? this.client : undefined;
  }

  /**
   * The client for a call: ready → now; starting (or lazy) → wait for it; failed → fail at once
   * with the startup error, so calls to an unavailable server never hang.
   */
  async clientForCall(): Promise<McpClient> {
    const phase = this.phaseValue;
    switch (phase.kind) {
      case 'ready':
        if (this.client) return this.client;
        return this.ensureStarted();
      case 'idle':
      case 'starting':
        return this.ensureStarted();
      case 'failed':
        throw this.unavailable(phase.display, phase.error);
      case 'cancelled':
      case 'closed':
        throw this.unavailable('its startup was cancelled');
    }
  }

  /** Re-list tools now (explicit refresh); a lazy or failed server is started. */
  async refresh(): Promise<void> {
    if (this.phaseValue.kind !== 'ready') {
      await this.ensureStarted();
      return;
    }
    await this.refreshTools();
  }

  async close(): Promise<void> {
    this.closed.abort(new McpClientError('cancelled', 'MCP startup cancelled'));
    this.clearRetry();
    const wasStarting = this.phaseValue.kind === 'starting';
    const client = this.client;
    this.client = undefined;
    if (wasStarting) this.setPhase({ kind: 'cancelled' });
    await Promise.allSettled([client?.close(), this.startup]);
    this.setPhase({ kind: 'closed' });
  }

  private unavailable(why: string, cause?: unknown): McpClientError {
    return new McpClientError('server_unavailable', `MCP server '${this.name}' is unavailable: ${why}`, { cause });
  }

  private async runStartup(): Promise<McpClient> {
    const startedAt = Date.now();
    const budget = startupTimeoutMs(this.config);
    this.setPhase({ kind: 'starting', startedAt });
    const previous = this.eraValue;
    try {
      const { value: started, prior } = await startWithRecordedEra(
        previous,
        (prior) => this.connectAndList(prior, Math.max(budget - (Date.now() - startedAt), 1)),
        (err) => !this.closed.signal.aborted && mayBeStaleVerdict(err),
        (err) => this.deps.logger.warn(`MCP server '${this.name}': starting with its recorded protocol ${previous?.protocol ?? ''} failed (${errorMessage(err)}); probing it again`),
      );
      if (this.closed.signal.aborted) {
        await started.client.close().catch(() => {});
        throw this.closed.signal.reason;
      }
      this.eraValue = eraAfterStartup(started.ready, prior, previous);
      this.liveTools = started.tools;
      this.freshness.listed(started.cache, started.listedAt);
      this.policy.succeeded();
      this.setPhase({ kind: 'ready', startupMs: Date.now() - startedAt });
      return started.client;
    } catch (err) {
      if (this.closed.signal.aborted) {
        if (this.phaseValue.kind === 'starting') this.setPhase({ kind: 'cancelled' });
        throw this.unavailable('its startup was cancelled', err);
      }
      this.fail(err, this.policy.nextDelayMs());
      throw this.unavailable(startupErrorDisplay(this.config, err), err);
    }
  }

  /** One client: connect and the first tools/list, together within `budget`; closed again on failure. */
  private async connectAndList(
    prior: PriorDiscovery | undefined,
    budget: number,
  ): Promise<{ client: McpClient; ready: ReadyInfo; tools: Tool[]; cache: ListCacheHint | undefined; listedAt: number }> {
    const startedAt = Date.now();
    const holder: { client?: McpClient } = {};
    let client: McpClient | undefined;
    try {
      client = await this.deps.createClient(this.config, this.clientHandlers(holder), prior ? { prior } : undefined);
      holder.client = client;
      this.client = client;
      const ready = await client.connect({ signal: this.closed.signal, timeoutMs: budget });
      const remaining = budget - (Date.now() - startedAt);
      const listedAt = Date.now();
      const { tools, cache } = await client.listToolsWithCache({ signal: this.closed.signal, timeoutMs: Math.max(remaining, 1) });
      return { client, ready, tools, cache, listedAt };
    } catch (err) {
      this.client = undefined;
      await client?.close().catch(() => {});
      throw err;
    }
  }

  /** `display` defaults to the startup failure text; a crash after being ready says so instead. */
  private fail(err: unknown, retryInMs: number | null, display = startupErrorDisplay(this.config, err)): void {
    const retryAt = retryInMs === null ? null : Date.now() + retryInMs;
    this.setPhase({ kind: 'failed', display, raw: startupFailureText(err), error: err, retryAt });
    if (retryInMs !== null) this.scheduleRetry(retryInMs);
  }

  private scheduleRetry(delayMs: number): void {
    this.clearRetry();
    if (this.retired) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.deps.logger.info(`MCP server '${this.name}': retrying startup`);
      this.ensureStarted().catch(() => {});
    }, delayMs);
    this.retryTimer.unref();
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** A ready server whose connection failed (process exited, stream died): restart or give up. */
  private onClientState(client: McpClient, state: McpClientState): void {
    if (client !== this.client || state.kind !== 'failed' || this.phaseValue.kind !== 'ready') return;
    this.client = undefined;
    void client.close().catch(() => {});
    this.crashCount += 1;
    const again = this.policy.recordCrash();
    this.deps.logger.warn(`MCP server '${this.name}' stopped after being ready: ${state.error.message}`);
    // It did start: "failed to start" would send the user looking in the wrong place.
    const stopped = (what: string, why: string) => `MCP server \`${this.name}\` stopped after being ready (${what}): ${why}`;
    if (!again) {
      const err = new SwitchboardError('crash_limit', `gave up after ${this.policy.crashLimitText}: ${state.error.message}`, { cause: state.error });
      this.fail(err, null, stopped(`gave up after ${this.policy.crashLimitText}`, state.error.message));
      return;
    }
    const delay = this.policy.nextDelayMs();
    this.fail(state.error, delay, stopped(`restarting in ${formatDuration(delay)}`, state.error.message));
  }

  /** Handlers for one client; `holder` names that client (it is created after its handlers). */
  private clientHandlers(holder: { client?: McpClient }): McpClientHandlers {
    const host = this.deps.handlers;
    const handlers: McpClientHandlers = {
      ...host,
      onToolsListChanged: () => {
        host.onToolsListChanged?.();
        void this.refreshTools();
      },
      onSessionRecovered: (event) => {
        host.onSessionRecovered?.(event);
        if (event.tools && event.toolsChanged && this.phaseValue.kind === 'ready') {
          this.liveTools = event.tools;
          this.deps.onToolsChanged(this);
        }
      },
      onStateChange: (state) => {
        host.onStateChange?.(state);
        if (holder.client) this.onClientState(holder.client, state);
      },
    };
    return handlers;
  }

  /** Re-fetch the tool list; bursts of list_changed coalesce into at most one extra fetch. */
  private refreshTools(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        const client = this.client;
        if (!client || this.phaseValue.kind !== 'ready') return;
        try {
          const listedAt = Date.now();
          const { tools, cache } = await client.listToolsWithCache({ signal: this.closed.signal });
          if (client !== this.client) return;
          this.liveTools = tools;
          this.freshness.listed(cache, listedAt);
          this.deps.onToolsChanged(this);
        } catch (err) {
          this.deps.logger.warn(`failed to refresh tools after list-changed notification for MCP server '${this.name}': ${errorMessage(err)}`);
        }
      } while (this.refreshAgain);
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private setPhase(phase: ServerPhase): void {
    if (this.phaseValue.kind === 'closed') return;
    this.phaseValue = phase;
    this.deps.onPhase(this);
  }
}
