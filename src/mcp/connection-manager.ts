// McpConnectionManager: many servers, one catalog. Parallel non-blocking startup with snapshots,
// startup events, routing by model-visible name, and per-server failure isolation.
import type { CallToolResult, ElicitResult, Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import type { McpClient, McpClientHandlers, UpstreamCaller } from '../mcp-client/index.js';
import { McpClientError, type Logger } from '../util/index.js';
import { raceSignal } from './manager-errors.js';
import { listAllPrompts, listAllResources, listAllResourceTemplates, type AggregateDeps, type QualifiedPrompt } from './aggregate.js';
import type { CatalogEntry } from './catalog.js';
import { CatalogState, contributionsOf } from './catalog-state.js';
import { ElicitationRouter, routeKey } from './elicitation-router.js';
import { ManagedServer } from './managed-server.js';
import { TemplateCache } from './template-cache.js';
import { ManagerOperations, type Reach } from './manager-operations.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, refuseCallerIdentityChange, reloadServers, type ServersReloaded } from './manager-reload.js';
import { ManagerSnapshots } from './manager-snapshots.js';
import { CallerServers } from './caller-servers.js';
import type { CallOptions, McpConnectionManagerDeps, McpConnectionManagerOptions, McpManagerEvent, OperationOptions, ReadOptions, StartupSummary, WaitMode } from './manager-types.js';
import { requiredFailures, startupStatus, startupSummary, statusOf, type ServerStatus } from './server-status.js';
import { TrustedServers } from './tool-metadata.js';
import { DEFAULT_MAX_TOOL_NAME_BYTES } from './tool-naming.js';

export type { CallOptions, McpConnectionManagerDeps, McpConnectionManagerOptions, McpManagerEvent, OperationOptions, ReadOptions, ServerStatus, ServersReloaded, StartupSummary, WaitMode };

/**
 * Many MCP servers as one catalog (Codex's connection manager). Servers start in parallel without
 * blocking (startup snapshots answer `listAllTools` meanwhile); tools get collision-free
 * model-visible names (`mcp__<server>__<tool>`); calls are routed by that name; resources and
 * prompts are aggregated. One server failing is an event and a status, never an error for the others:
 * it is retried in the background with backoff.
 *
 * Build one from config with `createConnectionManager(config)`, or construct it with your own
 * {@link ClientFactory}. Call `close()` when done: it ends every server process and session.
 *
 * @example
 * ```ts
 * const manager = createConnectionManager(config, { onEvent: (e) => console.error(e) });
 * manager.start();
 * for (const tool of await manager.listAllTools()) console.log(tool.name);
 * const result = await manager.callTool('mcp__everything__echo', { message: 'hi' });
 * await manager.close();
 * ```
 */
export class McpConnectionManager extends ManagerOperations {
  private readonly servers = new Map<string, ManagedServer>();
  /** Servers a reload replaced or removed, finishing their calls. */
  private readonly retiring = new Set<ManagedServer>();
  private readonly catalog: CatalogState;
  private readonly maxNameBytes: number;
  protected readonly router = new ElicitationRouter();
  private readonly templates = new TemplateCache((server, options) => this.listResourceTemplates(server, options));
  private readonly snapshots: ManagerSnapshots;
  private initialStartup: Promise<StartupSummary> | undefined;
  private closing = false;
  /** The servers that act as each caller, while serving callers (deps.identities). */
  protected readonly callerServers: CallerServers | undefined;

  constructor(
    private readonly options: McpConnectionManagerOptions,
    private readonly deps: McpConnectionManagerDeps,
  ) {
    super();
    this.snapshots = new ManagerSnapshots(deps.snapshots);
    this.maxNameBytes = options.maxToolNameBytes ?? DEFAULT_MAX_TOOL_NAME_BYTES;
    this.catalog = new CatalogState(options.trusted ?? new TrustedServers(), this.maxNameBytes);
    for (const config of Object.values(options.servers)) if (config.enabled) this.servers.set(config.name, this.createServer(config));
    this.callerServers = CallerServers.open(
      [...this.servers.values()],
      {
        createClient: deps.createClient,
        identities: deps.identities,
        logger: deps.logger,
        handlersFor: (server, caller) => this.handlersFor(server, caller),
        trusted: options.trusted ?? new TrustedServers(),
        maxNameBytes: this.maxNameBytes,
        managed: (name) => this.managed(name),
        referenceChanged: (server) => this.onServerToolsChanged(server),
      },
      options.callers,
    );
  }

  /** A changed configuration's servers (all, in its order) applied server by server, as manager-reload.ts says; events follow as at startup. */
  reload(servers: Readonly<Record<string, McpServerConfig>>, options: { drainTimeoutMs?: number } = {}): ServersReloaded {
    if (this.closing) throw new McpClientError('cancelled', 'the connection manager is shut down');
    refuseCallerIdentityChange(this.servers, servers);
    const { servers: current, retiring, snapshots, deps } = this;
    const host = { servers: current, retiring, snapshots, logger: deps.logger, started: this.initialStartup !== undefined, create: (c: McpServerConfig) => this.createServer(c), rebuild: (s: string) => this.rebuild(s), forget: (s: string) => this.templates.forget(s) };
    return reloadServers(host, servers, options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
  }

  /** Launch every eager server in parallel and return at once. */
  start(): void {
    if (this.initialStartup) return;
    this.initialStartup = this.snapshotsLoaded().then(async () => {
      // A server that acts as each caller is never started as the operator.
      const eager = [...this.servers.values()].filter((s) => s.config.startup_mode === 'eager' && !this.actsAsCaller(s.name));
      await Promise.allSettled(eager.map((s) => s.ensureStarted()));
      const summary = startupSummary(eager);
      if (!this.closing) this.emit({ type: 'mcp_startup_complete', ...summary });
      return summary;
    });
  }

  serverNames(): string[] {
    return [...this.servers.keys()];
  }

  /** Resolves once every eager server's first startup has settled. */
  async waitForStartup(options: { signal?: AbortSignal } = {}): Promise<StartupSummary> {
    this.start();
    return raceSignal(this.initialStartup!, options.signal);
  }

  /** Fails with Codex's text if a `required = true` server did not start. */
  async requireServers(options: { signal?: AbortSignal } = {}): Promise<void> {
    this.start();
    await raceSignal(this.snapshotsLoaded(), options.signal);
    const required = [...this.servers.values()].filter((s) => s.config.required && !this.actsAsCaller(s.name));
    const failures = await requiredFailures(required, options.signal);
    if (failures.length > 0) throw new McpClientError('required_failed', `required MCP servers failed to initialize: ${failures.join('; ')}`);
  }

  /**
   * The catalog. `none` answers at once from live and snapshot entries; `unsnapshotted` (default)
   * waits only for starting servers that have no snapshot; `all` waits for every eager startup.
   * With `start: false` no server is started: the answer comes from snapshots (and servers already up).
   */
  async listAllTools(options: { wait?: WaitMode; signal?: AbortSignal; start?: boolean; caller?: UpstreamCaller } = {}): Promise<CatalogEntry[]> {
    if (options.start === false) {
      await raceSignal(this.snapshotsLoaded(), options.signal);
      return [...this.catalog.entries];
    }
    this.start();
    await raceSignal(this.snapshotsLoaded(), options.signal);
    const now = Date.now();
    // A list past its 2026-07-28 cache time is read again behind this answer; list_changed does it at once.
    for (const s of this.servers.values()) s.refreshIfStale(now);
    const wait = options.wait ?? 'unsnapshotted';
    if (wait === 'all') await raceSignal(this.initialStartup!, options.signal);
    else if (wait === 'unsnapshotted') {
      // A snapshot past its TTL is no answer: wait for that server as for one without a snapshot.
      const pending = [...this.servers.values()].filter((s) => s.phase.kind === 'starting' && !s.hasFreshSnapshot(now));
      await raceSignal(Promise.all(pending.map((s) => s.settled())), options.signal);
    }
    const own = options.caller && this.callerServers ? await this.callerServers.catalogFor(options.caller, contributionsOf(this.servers.values()), options.signal) : undefined;
    return [...(own ?? this.catalog).entries];
  }

  /** The current catalog entry for a model-visible name (no waiting); `caller`: in that caller's own catalog first. */
  lookup(name: string, caller?: UpstreamCaller): CatalogEntry | undefined {
    return (caller && this.callerServers?.catalogSeen(caller.key)?.get(name)) || this.catalog.get(name);
  }

  closestToolNames(name: string): string[] {
    return this.catalog.closest(name);
  }

  /**
   * Call by model-visible name. A tool known only from a snapshot waits for its server; a name that
   * no live list or snapshot has shown yet fails with `unknown_tool` (list the tools first).
   */
  async callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    this.start();
    // Once the snapshots are in (every call but the first few), a call has nothing to wait for.
    if (!this.snapshots.loaded) await raceSignal(this.snapshotsLoaded(), options.signal);
    const entry = (options.caller && this.callerServers?.catalogSeen(options.caller.key)?.get(name)) || this.catalog.forCall(name);
    if (!entry) throw this.catalog.unknownTool(name);
    return this.callServerTool(entry.server, entry.tool, args, options);
  }

  /** Servers that are ready now, in config order. */
  readyServers(): string[] {
    return [...this.servers.values()].filter((s) => s.phase.kind === 'ready').map((s) => s.name);
  }

  /** The servers whose instructions are known without starting them: the ready ones, and those stop_after_idle_sec stopped. */
  instructedServers(): string[] {
    return [...this.servers.values()].filter((s) => s.knownInstructions() !== undefined).map((s) => s.name);
  }

  status(): ServerStatus[] {
    const counts = this.callers?.counts();
    return [...this.servers.values()].map((s) => (counts && this.actsAsCaller(s.name) ? { ...statusOf(s), identity: 'caller' as const, caller_connections: counts.get(s.name) ?? 0 } : statusOf(s)));
  }

  /**
   * Re-list one server's tools (starting it if lazy or failed), or all servers'. Aborting `signal`
   * ends the wait (`cancelled`); a list already asked for still arrives and updates the catalog.
   */
  async refresh(serverName?: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    this.start();
    const targets = (serverName ? [this.managed(serverName)] : [...this.servers.values()]).filter((s) => !this.actsAsCaller(s.name));
    await raceSignal(Promise.allSettled(targets.map((s) => s.refresh())), options.signal);
  }

  /** Every ready server's resources (all pages), by server; failed servers are left out. */
  listAllResources(options: Reach = {}): Promise<Map<string, Resource[]>> {
    return listAllResources(this.aggregateDeps(options.caller), options.signal);
  }

  listAllResourceTemplates(options: Reach = {}): Promise<Map<string, ResourceTemplateType[]>> {
    return listAllResourceTemplates(this.aggregateDeps(options.caller), options.signal);
  }

  /** Prompts of every ready server under qualified names (`<server>__<prompt>`); `caller`: with that caller's own servers. */
  listAllPrompts(options: Reach = {}): Promise<QualifiedPrompt[]> {
    return listAllPrompts(this.aggregateDeps(options.caller), this.maxNameBytes, options.signal);
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.servers.values(), ...this.retiring].map((s) => s.close()));
    this.rebuild(''); // once, for every server closed (each one's close does not rebuild: see onServerToolsChanged)
    await this.callerServers?.close();
  }

  /** The clients an aggregated list reads: every ready server's, and `caller`'s own connections to the servers that act as each caller. */
  private aggregateDeps(caller: UpstreamCaller | undefined): AggregateDeps {
    return {
      logger: this.deps.logger,
      readyClients: async (signal) => {
        await this.waitForStartup({ signal });
        const reached = [...this.servers.values()].filter((s) => (this.actsAsCaller(s.name) ? caller !== undefined : s.phase.kind === 'ready'));
        const clients = await Promise.all(reached.map(async (s) => ({ server: s.name, client: await this.client(s.name, { signal, caller }).catch(() => undefined) })));
        return clients.filter((c): c is { server: string; client: McpClient } => c.client !== undefined);
      },
    };
  }

  protected get logger(): Logger {
    return this.deps.logger;
  }

  protected managed(name: string): ManagedServer {
    const server = this.servers.get(name);
    if (!server) throw new McpClientError('unknown_server', `unknown MCP server '${name}'`);
    return server;
  }

  /** Reads every server's snapshot once. */
  private snapshotsLoaded(): Promise<void> {
    return this.snapshots.load(() => this.servers.values(), () => this.catalog.rebuild(contributionsOf(this.servers.values()), ''));
  }

  protected templatesOf(server: string, options: Reach): Promise<readonly string[]> {
    // A caller's own connection may list other templates than another caller's: never shared.
    return this.templates.of(server, options, !this.actsAsCaller(server));
  }

  private handlersFor(name: string, caller?: string): McpClientHandlers {
    const host = this.deps.handlersFor?.(name, caller) ?? {};
    return {
      ...host,
      onResourcesListChanged: () => {
        this.templates.forget(name);
        host.onResourcesListChanged?.();
      },
      elicitation: (request, ctx) => this.router.route(name, request, ctx, host.elicitation, routeKey(name, caller)) as Promise<ElicitResult>,
    };
  }

  private createServer(config: McpServerConfig): ManagedServer {
    return new ManagedServer(config, {
      createClient: this.deps.createClient,
      logger: this.deps.logger,
      restart: this.options.restart,
      ...(this.options.stdioIdleStopSec === undefined ? {} : { stdioIdleStopSec: this.options.stdioIdleStopSec }),
      handlers: this.handlersFor(config.name),
      onPhase: (s) => this.onPhase(s),
      onToolsChanged: (s) => this.onServerToolsChanged(s),
    });
  }

  /** A server a reload took out says nothing more (its name is its successor's now); one that (re)started may list other templates. */
  private onPhase(server: ManagedServer): void {
    if (this.servers.get(server.name) !== server) return;
    if (server.phase.kind !== 'ready') this.templates.forget(server.name);
    const status = startupStatus(server.phase);
    if (status && !this.closing) this.emit({ type: 'mcp_startup_update', server: server.name, status });
    this.onServerToolsChanged(server);
  }

  /** Rebuild the catalog after `server`'s contribution may have changed; say what changed; save the live list. */
  private onServerToolsChanged(server: ManagedServer): void {
    if (this.servers.get(server.name) !== server) return;
    // While closing, the catalog is rebuilt once at the end, not once for each server that closes.
    if (!this.closing) this.rebuild(server.name);
    this.snapshots.save(server);
  }

  private rebuild(server: string): void {
    const diff = this.catalog.rebuild(contributionsOf(this.servers.values()), server);
    if (diff.added.length + diff.removed.length + diff.changed.length > 0 && !this.closing) this.emit({ type: 'mcp_tools_changed', ...diff });
  }

  private emit(event: McpManagerEvent): void {
    try {
      this.deps.onEvent?.(event);
    } catch (err) {
      this.deps.logger.warn('MCP event listener failed', { error: String(err) });
    }
  }
}
