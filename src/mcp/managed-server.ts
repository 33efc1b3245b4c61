// One configured server inside the manager: its lazily started, shared startup; its live or snapshot
// tool list (server-tools.ts); background retries with backoff; crash restarts; list_changed refreshes;
// and its stop after stop_after_idle_sec with nothing running (its next use starts it again).
import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import { startupTimeoutMs, stopAfterIdleMs } from '../config/index.js';
import type { McpClient, McpClientHandlers, McpClientState, PriorDiscovery } from '../mcp-client/index.js';
import { errorMessage, McpClientError, type Logger } from '../util/index.js';
import { RestartPolicy, RetryTimer, type RestartPolicyOptions } from './restart-policy.js';
import { connectAndList, eraAfterStartup, mayBeStaleVerdict, startWithRecordedEra, type FirstList, type ServerEra } from './server-era.js';
import { ServerTools } from './server-tools.js';
import type { SnapshotCache } from './snapshot-store.js';
import { toolFilterFor, type ToolFilter } from './tool-filter.js';
import { startupErrorDisplay, startupFailureText } from './startup-error.js';
import { CallDrain } from './call-drain.js';
import type { ServerPhase } from './server-status.js';
import type { ClientFactory } from './client-factory.js';

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
  /** stop_after_idle_sec of a stdio server that sets none (a gateway's mcp_stop_after_idle_sec). Default: never. */
  stdioIdleStopSec?: number;
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
  private readonly toolList: ServerTools;
  private eraValue: ServerEra | undefined;
  private startup: Promise<McpClient> | undefined;
  private readonly retry = new RetryTimer();
  /** The check for stop_after_idle_sec while ready (one timer, re-armed for the idle time still to wait). */
  private idleCheck: NodeJS.Timeout | undefined;
  /** Holds on it (a task it runs for a client): while any is, stop_after_idle_sec does not stop it. */
  private holds = 0;
  /** When the last hold was let go: the idle time counts from then too. */
  private heldUntil = 0;
  /** Set while stop_after_idle_sec has it stopped: what its last client knew, given out without starting it. */
  private stoppedWith: { instructions: string | undefined; at: number } | undefined;
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
    this.toolList = new ServerTools(config.name, deps.logger, () => this.readyClient(), this.closed.signal, () => deps.onToolsChanged(this));
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
    if (this.phaseValue.kind === 'ready') this.armIdleStop(this.idleStopMs());
  }

  /** A reload replaced or removed it: no more background retries or crash restarts (close() follows its drain). */
  retire(): void {
    this.retired = true;
    this.retry.clear();
    this.armIdleStop(undefined);
  }

  get phase(): ServerPhase {
    return this.phaseValue;
  }

  /** The tools this server contributes now: live when ready, its snapshot while not yet started. */
  get tools(): { tools: Tool[]; source: 'live' | 'snapshot' } | undefined {
    return this.toolList.current(this.phaseValue.kind);
  }

  /** A snapshot a warm start may answer with instead of waiting: one without a TTL, or within it. */
  hasFreshSnapshot(now = Date.now()): boolean {
    return this.toolList.hasFreshSnapshot(now);
  }

  /** The live list's cache hint, in the form a snapshot records it. */
  get listCache(): SnapshotCache | undefined {
    return this.toolList.listCache;
  }

  /**
   * The catalog is being used: a live list past its TTL is read again behind the answer (at most
   * one read at a time); true when one was started.
   */
  refreshIfStale(now = Date.now()): boolean {
    if (this.phaseValue.kind !== 'ready' || !this.toolList.stale(now)) return false;
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
    this.toolList.loadSnapshot(tools, cache);
    this.eraValue ??= era;
  }

  /** The server's client once ready: starts it if needed, shares a startup already running. */
  ensureStarted(): Promise<McpClient> {
    const phase = this.phaseValue;
    if (phase.kind === 'ready' && this.client) return Promise.resolve(this.client);
    if (phase.kind === 'closed') return Promise.reject(this.unavailable('the connection manager is shut down'));
    this.retry.clear();
    this.startup ??= this.runStartup().finally(() => {
      this.startup = undefined;
    });
    return this.startup;
  }

  /** Resolves when the current startup attempt (if any) has finished, whatever its outcome. */
  async settled(): Promise<void> {
    await this.startup?.catch(() => {});
  }

  /** Keep it from being stopped for being idle until the returned function is called (once is enough). */
  hold(): () => void {
    this.holds += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.holds -= 1;
      this.heldUntil = Date.now();
    };
  }

  /**
   * The server's instructions when known without starting it: a ready client's, or, while it is
   * stopped for being idle, its last client's; undefined (not known) for a server never started.
   */
  knownInstructions(): { instructions: string | undefined } | undefined {
    const ready = this.readyClient();
    if (ready) return { instructions: ready.instructions };
    return this.phaseValue.kind === 'idle' ? this.stoppedWith : undefined;
  }

  /** When stop_after_idle_sec stopped it, while it stays stopped (ms since the epoch). */
  get stoppedIdleAt(): number | undefined {
    return this.phaseValue.kind === 'idle' ? this.stoppedWith?.at : undefined;
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
    this.retry.clear();
    this.armIdleStop(undefined);
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
      this.toolList.listed(started.tools, started.cache, started.listedAt);
      this.policy.succeeded();
      this.setPhase({ kind: 'ready', startupMs: Date.now() - startedAt });
      this.toolList.readyWithListOf(started.listedAt);
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

  /** One client, connected and listed within `budget`; its handlers may fire while it connects. */
  private connectAndList(prior: PriorDiscovery | undefined, budget: number): Promise<FirstList> {
    const holder: { client?: McpClient } = {};
    const make = () => this.deps.createClient(this.config, this.clientHandlers(holder), prior ? { prior } : undefined);
    const adopt = (client: McpClient | undefined) => {
      holder.client = client;
      this.client = client;
    };
    return connectAndList(make, adopt, budget, this.closed.signal);
  }

  /** `display` defaults to the startup failure text; a crash after being ready says so instead. */
  private fail(err: unknown, retryInMs: number | null, display = startupErrorDisplay(this.config, err)): void {
    const retryAt = retryInMs === null ? null : Date.now() + retryInMs;
    this.setPhase({ kind: 'failed', display, raw: startupFailureText(err), error: err, retryAt });
    if (retryInMs !== null) this.scheduleRetry(retryInMs);
  }

  private scheduleRetry(delayMs: number): void {
    if (this.retired) return;
    this.retry.schedule(delayMs, () => {
      this.deps.logger.info(`MCP server '${this.name}': retrying startup`);
      this.ensureStarted().catch(() => {});
    });
  }

  /** A ready server whose connection failed (process exited, stream died): restart or give up. */
  private onClientState(client: McpClient, state: McpClientState): void {
    if (client !== this.client || state.kind !== 'failed' || this.phaseValue.kind !== 'ready') return;
    this.client = undefined;
    void client.close().catch(() => {});
    this.crashCount += 1;
    this.deps.logger.warn(`MCP server '${this.name}' stopped after being ready: ${state.error.message}`);
    const verdict = this.policy.afterCrash(this.name, state.error);
    this.fail(verdict.error, verdict.retryInMs, verdict.display);
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
        if (event.tools && event.toolsChanged && this.phaseValue.kind === 'ready') this.toolList.recovered(event.tools);
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
    return this.toolList.refresh();
  }

  private setPhase(phase: ServerPhase): void {
    if (this.phaseValue.kind === 'closed') return;
    this.phaseValue = phase;
    this.armIdleStop(phase.kind === 'ready' && !this.retired ? this.idleStopMs() : undefined);
    this.deps.onPhase(this);
  }

  /** Its stop_after_idle_sec, or the host's default for a stdio server that sets none (ms; undefined: never). */
  private idleStopMs(): number | undefined {
    return stopAfterIdleMs(this.config, this.deps.stdioIdleStopSec);
  }

  /** Check for stop_after_idle_sec in `inMs` (undefined: stop checking). */
  private armIdleStop(inMs: number | undefined): void {
    clearTimeout(this.idleCheck);
    this.idleCheck = undefined;
    if (inMs === undefined) return;
    this.idleCheck = setTimeout(() => this.stopIfIdle(), inMs);
    this.idleCheck.unref();
  }

  /**
   * A ready server whose client has had nothing running (no operation, no resource subscription, no
   * hold) for stop_after_idle_sec is stopped: its live tools stay in the catalog as its snapshot, and
   * it goes back to idle, so its next use starts it again as a lazy server starts (the recorded era kept).
   */
  private stopIfIdle(): void {
    const idleMs = this.idleStopMs();
    const client = this.client;
    if (this.phaseValue.kind !== 'ready' || !client || idleMs === undefined) return;
    const busy = client.busy || this.holds > 0;
    const idleFor = Date.now() - Math.max(client.idleSince, this.heldUntil);
    if (busy || idleFor < idleMs) {
      this.armIdleStop(busy ? idleMs : idleMs - idleFor);
      return;
    }
    this.toolList.stopped();
    this.client = undefined;
    this.stoppedWith = { instructions: client.instructions, at: Date.now() };
    const setting = this.config.stop_after_idle_sec === null ? 'mcp_stop_after_idle_sec, the default for a stdio server; stop_after_idle_sec = 0 keeps it running' : 'stop_after_idle_sec';
    this.deps.logger.info(`MCP server '${this.name}' stopped after ${Math.round(idleFor / 100) / 10} s with nothing running (${setting}); its next use starts it again`);
    this.setPhase({ kind: 'idle' });
    void client.close().catch(() => {});
  }
}
