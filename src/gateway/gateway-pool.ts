// One gateway's shared upstream side: one connection manager (one pool of upstream connections) for
// every client it serves (each HTTP session, the stdio client), opened on first need and closed with
// the gateway. It fans out what concerns every client (list changes, status lines) and keeps what
// concerns one client (requests, subscriptions, log levels, tasks) to that client.
import { pathToFileURL } from 'node:url';
import type { LoggingLevel, Root } from '@modelcontextprotocol/server';
import type { McpServerConfig } from '../config/index.js';
import { canonicalUri, type McpManagerEvent, type ServersReloaded, type UpstreamAccess } from '../mcp/index.js';
import type { UpstreamCaller } from '../mcp-client/index.js';
import type { CallerView } from '../mcp-host/index.js';
import { assertNever, errorMessage, SwitchboardError, type Logger } from '../util/index.js';
import type { GatewayMode } from './catalog-view.js';
import type { ListKind } from './list-changed.js';
import { upstreamInstructions } from './instructions.js';
import { PoolSubscriptions, type Emptied } from './pool-subscriptions.js';
import type { GatewayDeps, GatewayOptions, PoolClient, PoolWatcher, UpstreamTaskEvents } from './pool-types.js';
import { openUpstreams, type Upstreams } from './upstreams.js';

const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export type { GatewayDeps, GatewayOptions, PoolClient, PoolWatcher, UpstreamTaskEvents } from './pool-types.js';

export function levelPasses(threshold: LoggingLevel | undefined, level: LoggingLevel): boolean {
  return threshold === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);
}

export class GatewayPool {
  private up: Upstreams | undefined;
  private closed = false;
  private readonly members = new Set<PoolClient>();
  private readonly watchers = new Set<PoolWatcher>();
  /** The failure line last sent per server, until it is ready again. */
  private readonly failureShown = new Map<string, string>();
  private readonly subscriptions = new PoolSubscriptions<PoolClient>();
  /** The level upstreams were given: the most verbose any client asked for. */
  private upstreamLevel: LoggingLevel | undefined;
  private readonly roots: Root[];
  /** The tasks the gateway holds, told what their upstreams say about them. */
  private taskEvents: UpstreamTaskEvents | undefined;
  private readonly upstreamListeners: (() => void)[] = [];
  /** The servers of a configuration reloaded before the upstreams were opened: the manager opens with them. */
  private reloaded: Readonly<Record<string, McpServerConfig>> | undefined;

  constructor(
    readonly options: GatewayOptions,
    private readonly deps: GatewayDeps,
  ) {
    this.roots = deps.roots ?? [{ uri: pathToFileURL(process.cwd()).href, name: 'workspace' }];
  }

  /** Where what upstreams say about their tasks goes (set once, before the first client). */
  attachTasks(events: UpstreamTaskEvents): void {
    this.taskEvents = events;
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  get mode(): GatewayMode {
    return this.options.mode;
  }

  /** The upstream side, started on first need. */
  upstreams(): Upstreams {
    if (this.closed) throw new SwitchboardError('closed', 'the gateway is closed');
    if (!this.up) {
      this.up = openUpstreams(
        {
          mode: this.mode,
          logger: this.logger,
          roots: this.roots,
          clients: () => this.members,
          onEvent: (event) => this.onManagerEvent(event),
          listChanged: (kind, server, caller) => this.listChanged(kind, server, caller),
          sessionRecovered: (server) => {
            if (this.up && !this.closed) void this.reconnected(this.up, server);
          },
          taskStatus: (server, params, caller) => this.taskEvents?.status(server, params, caller),
          taskAsker: (server, taskId, caller) => this.taskEvents?.asker(server, taskId, caller),
          // `caller`: on that caller's own connection, so its subscribers alone hear it.
          resourceUpdated: (uri, server, caller) => {
            for (const c of this.subscriptions.subscribers(uri, caller)) c.notify({ method: 'notifications/resources/updated', params: { uri } });
            for (const w of this.watchers) w.resourceUpdated(uri, server, caller);
          },
        },
        this.deps.createManager,
      );
      if (this.reloaded) this.up.manager.reload(this.reloaded);
      this.up.manager.start();
    }
    return this.up;
  }

  /**
   * A reloaded configuration's servers, applied by the manager server by server; its prompts and
   * resources routes are renewed and the clients told. Undefined while the upstreams are not open
   * (they open with these servers).
   */
  reloadServers(servers: Readonly<Record<string, McpServerConfig>>, drainTimeoutMs?: number): ServersReloaded | undefined {
    const up = this.peekUpstreams();
    if (!up) {
      this.reloaded = servers;
      return undefined;
    }
    const done = up.manager.reload(servers, drainTimeoutMs === undefined ? {} : { drainTimeoutMs });
    for (const server of done.removed) this.failureShown.delete(server);
    const moved = [...done.added, ...done.removed, ...done.restarted];
    if (moved.length > 0) {
      up.catalog.invalidatePrompts();
      up.routes.invalidate();
      for (const server of moved) this.tellChanged(server, ['prompts', 'resources']);
    }
    return done;
  }

  /** The upstream side if it was started; never starts it. */
  peekUpstreams(): Upstreams | undefined {
    return this.closed ? undefined : this.up;
  }

  /** Called after every upstream event (a server starting, failing, recovering; the catalog changing). */
  onUpstreamEvent(listener: () => void): void {
    this.upstreamListeners.push(listener);
  }

  /** A client finished initializing: it hears list changes and status lines from now on, and the failures standing now. */
  join(client: PoolClient): void {
    if (this.closed) return;
    this.members.add(client);
    const up = this.upstreams();
    // A client arriving while a server is down hears about it as the others did.
    for (const [server, text] of this.failureShown) up.relay.status(server, 'error', text, [client]);
  }

  /** `watcher` hears list changes and resource updates until the returned function is called. */
  watch(watcher: PoolWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** The instructions for a client with `view`: the upstreams' it sees (started if need be), see instructions.ts. */
  async instructions(view: CallerView): Promise<string | undefined> {
    if (this.closed) return this.options.instructions;
    return upstreamInstructions(this.upstreams().manager, this.mode, this.options.instructions, view);
  }

  /** A client went away: its subscriptions and log level no longer count; the upstreams stay. */
  async leave(client: PoolClient): Promise<void> {
    if (!this.members.delete(client)) return;
    const up = this.up;
    if (!up || this.closed) return;
    up.relay.forget(client);
    await Promise.all(this.subscriptions.removeClient(client).map((emptied) => this.unsubscribeUpstream(up, emptied)));
    if (this.wantedLevel() !== this.upstreamLevel) await this.applyLevel();
  }

  /**
   * `client` subscribes to `uri` on `server` within `access` (checked for every subscriber); the
   * upstream once per URI and connection: the shared one, or `caller`'s own where the server acts as each caller.
   */
  async subscribe(client: PoolClient, uri: string, server: string, signal: AbortSignal, access?: UpstreamAccess, caller?: UpstreamCaller): Promise<void> {
    const { manager } = this.upstreams();
    const reach = { signal, ...(access ? { access } : {}), ...(caller ? { caller } : {}) };
    const key = canonicalUri(await manager.resourceUri(server, uri, reach));
    const own = manager.actsAsCaller(server) ? caller : undefined;
    await this.subscriptions.add(client, key, server, own, () => manager.subscribe(server, key, reach));
  }

  /** The upstream is unsubscribed (on the connection it was made on) only when `client` was the last subscriber there. */
  async unsubscribe(client: PoolClient, uri: string, signal: AbortSignal): Promise<void> {
    const emptied = this.subscriptions.remove(client, uri);
    if (!emptied) return;
    await this.upstreams().manager.unsubscribe(emptied.server, emptied.uri, { signal, ...(emptied.caller ? { caller: emptied.caller } : {}) });
  }

  /** Gives every ready server that logs the most verbose level any client asked for. */
  async applyLevel(signal?: AbortSignal): Promise<void> {
    const level = this.wantedLevel();
    this.upstreamLevel = level;
    if (level === undefined || !this.up) return;
    const { manager } = this.up;
    await Promise.all(
      manager.readyServers().map(async (name) => {
        try {
          await manager.setLoggingLevel(name, level, signal ? { signal } : {});
        } catch (err) {
          this.logger.warn(`gateway: logging/setLevel on MCP server '${name}' failed: ${errorMessage(err)}`);
        }
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.members.clear();
    await this.up?.manager.close();
  }

  private wantedLevel(): LoggingLevel | undefined {
    let best: number | undefined;
    for (const c of this.members) {
      if (c.loggingLevel === undefined) continue;
      const i = LEVELS.indexOf(c.loggingLevel);
      if (best === undefined || i < best) best = i;
    }
    return best === undefined ? undefined : LEVELS[best];
  }

  private async unsubscribeUpstream(up: Upstreams, { server, uri, caller }: Emptied): Promise<void> {
    try {
      await up.manager.unsubscribe(server, uri, caller ? { caller } : {});
    } catch (err) {
      this.logger.debug('gateway: unsubscribe after the last subscriber left failed', { server, uri, error: errorMessage(err) });
    }
  }

  /** What the manager reports becomes list_changed notifications and upkeep of routes. */
  private onManagerEvent(event: McpManagerEvent): void {
    for (const listener of this.upstreamListeners) listener();
    const up = this.up;
    if (!up || this.closed) return;
    switch (event.type) {
      case 'mcp_tools_changed':
        this.tellChanged(event.server, ['tools']);
        return;
      case 'mcp_startup_update':
        if (event.status.state === 'ready' || event.status.state === 'failed') {
          up.catalog.invalidatePrompts();
          up.routes.invalidate();
          this.tellChanged(event.server, ['prompts', 'resources']);
        }
        if (event.status.state === 'ready') {
          this.failureShown.delete(event.server);
          void this.reconnected(up, event.server);
        }
        if (event.status.state === 'failed') this.reportFailure(up, event.server, event.status.error);
        return;
      case 'mcp_startup_complete':
        up.catalog.startupComplete();
        return;
      default:
        assertNever(event, 'manager event');
    }
  }

  /**
   * An upstream failure as one status line for every client (and the log): the text of the manager's
   * failure update. A retry that fails the same way adds nothing, so it is not repeated.
   */
  private reportFailure(up: Upstreams, server: string, text: string): void {
    if (this.failureShown.get(server) === text) return;
    this.failureShown.set(server, text);
    this.logger.error(`gateway: ${text}`, { server });
    up.relay.status(server, 'error', text);
  }

  /** An upstream's list changed; `caller`: on that caller's own connection, so only its clients are told. */
  private listChanged(kind: ListKind, server: string, caller: string | undefined): void {
    const up = this.up;
    if (!up || this.closed) return;
    if (kind === 'prompts') up.catalog.invalidatePrompts();
    else if (kind === 'resources') up.routes.invalidate();
    this.tellChanged(server, [kind], caller);
  }

  /** `server`'s lists of these kinds changed: told to the clients that see it (of `caller` alone, when named), and to the watchers. */
  tellChanged(server: string, kinds: readonly ListKind[], caller?: string): void {
    for (const c of this.members) if (c.sees(server) && (caller === undefined || c.callerKey === caller)) c.listChanged(...kinds);
    for (const w of this.watchers) for (const kind of kinds) w.listChanged(kind, server, caller);
  }

  /**
   * A server's shared connection (re)connected or got a new upstream session (which holds neither):
   * give it the log level and renew the subscriptions it serves.
   */
  private async reconnected(up: Upstreams, server: string): Promise<void> {
    try {
      const level = this.upstreamLevel;
      if (level !== undefined) await up.manager.setLoggingLevel(server, level);
      const uris = this.subscriptions.urisOf(server);
      if (uris.length > 0) await up.manager.resubscribe(server, uris);
    } catch (err) {
      this.logger.warn(`gateway: could not restore the log level or subscriptions on MCP server '${server}': ${errorMessage(err)}`);
    }
  }
}
