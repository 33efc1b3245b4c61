// One upstream connection per (caller, server) for the servers that act as each caller
// (identity = "caller"): made on the caller's first use with that caller's credential, pooled, closed
// when idle, and bounded (past the bound the least recently used idle one is closed). A connection
// is only ever found under its own caller's key, and its credential is checked before every use, so
// a credential revoked on any replica stops being used at the next call. A connection holding
// resource subscriptions is never closed as idle, makes them again in a new upstream session, and
// one that is lost (failed, its credential revoked) passes them to that caller's next connection.
import type { Tool } from '@modelcontextprotocol/client';
import { startupTimeoutMs, type McpServerConfig } from '../config/index.js';
import type { CallerAuth, ListCacheHint, McpClient, McpClientHandlers, UpstreamCaller, UpstreamIdentities } from '../mcp-client/index.js';
import { errorMessage, isMcpClientError, McpClientError, type Logger } from '../util/index.js';
import { raceSignal } from './manager-errors.js';
import type { ClientFactory } from './client-factory.js';
import { resubscribe } from './resubscribe.js';

export const CALLER_CONNECTION_DEFAULTS = {
  /** Caller connections held at once, over every server. */
  maxConnections: 1_000,
  /** A caller connection with nothing running for this long is closed (its next use connects again). */
  idleMs: 5 * 60_000,
};

export interface CallerConnectionsOptions {
  maxConnections?: number;
  idleMs?: number;
}

export interface CallerConnectionsDeps {
  createClient: ClientFactory;
  identities: UpstreamIdentities;
  logger: Logger;
  /** The host's handlers for one caller's connection to one server. */
  handlersFor(server: string, caller: string): McpClientHandlers;
  /** A caller's connection listed its tools (at its start, and after list_changed). */
  onTools(server: string, caller: string, tools: Tool[], cache: ListCacheHint | undefined): void;
  now?: () => number;
}

interface Entry {
  readonly server: string;
  readonly caller: string;
  readonly ready: Promise<McpClient>;
  auth: CallerAuth | undefined;
  client: McpClient | undefined;
  tools: Tool[] | undefined;
  cache: ListCacheHint | undefined;
  lastUsed: number;
  /** Connected and listed: only then may it be closed as idle (a waiting request holds one still connecting). */
  settled: boolean;
  /** The resource URIs subscribed on it: while any is, it is not idle. */
  readonly subscribed: Set<string>;
}

const keyOf = (server: string, caller: string) => `${server}\u0000${caller}`;

/** Nothing waits on it, runs on it, or listens through it. */
const idle = (e: Entry) => e.settled && e.client !== undefined && !e.client.busy && e.subscribed.size === 0;

export class CallerConnections {
  private readonly entries = new Map<string, Entry>();
  /** The subscriptions of connections that were lost, by (server, caller): made again on the next one. */
  private readonly lostSubscriptions = new Map<string, Set<string>>();
  private readonly maxConnections: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly sweep: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly deps: CallerConnectionsDeps,
    options: CallerConnectionsOptions = {},
  ) {
    this.maxConnections = options.maxConnections ?? CALLER_CONNECTION_DEFAULTS.maxConnections;
    this.idleMs = options.idleMs ?? CALLER_CONNECTION_DEFAULTS.idleMs;
    this.now = deps.now ?? Date.now;
    this.sweep = setInterval(() => this.evictIdle(), Math.max(250, Math.min(this.idleMs / 2, 60_000)));
    this.sweep.unref();
  }

  /** `caller`'s connection to `config`'s server: the pooled one, or a new one made with the caller's credential. */
  async client(config: McpServerConfig, caller: UpstreamCaller, signal?: AbortSignal): Promise<McpClient> {
    if (this.closed) throw new McpClientError('server_unavailable', `MCP server '${config.name}' is unavailable: the connection manager is shut down`);
    const key = keyOf(config.name, caller.key);
    const held = this.entries.get(key);
    if (held) {
      held.lastUsed = this.now();
      held.auth?.renew(caller);
      const usable = held.auth === undefined || (await held.auth.current());
      const failed = held.client !== undefined && (held.client.status.kind === 'failed' || held.client.status.kind === 'closed');
      if (usable && !failed) return raceSignal(held.ready, signal);
      if (!usable) this.deps.logger.info('a caller credential is gone (revoked); closing its connection', { server: config.name });
      this.drop(key, held);
    }
    return raceSignal(this.open(config, caller, key).ready, signal);
  }

  /** The tools `caller`'s connection to `server` listed last; undefined before it has one. */
  toolsOf(server: string, caller: string): { tools: Tool[]; cache: ListCacheHint | undefined } | undefined {
    const entry = this.entries.get(keyOf(server, caller));
    return entry?.tools ? { tools: entry.tools, cache: entry.cache } : undefined;
  }

  /** Whether `caller` holds a live connection to `server` now. */
  holds(server: string, caller: string): boolean {
    return this.entries.get(keyOf(server, caller))?.client?.status.kind === 'ready';
  }

  /** Which identity `caller`'s connection to `server` uses, once it has one. */
  kindOf(server: string, caller: string): CallerAuth['kind'] | undefined {
    return this.entries.get(keyOf(server, caller))?.auth?.kind;
  }

  /** An operation on `caller`'s connection failed to authenticate: the error to answer with (a new login link where one helps). */
  async authFailed(config: McpServerConfig, caller: UpstreamCaller, err: unknown): Promise<unknown> {
    if (!isMcpClientError(err, 'auth_required')) return err;
    const key = keyOf(config.name, caller.key);
    const held = this.entries.get(key);
    if (held) this.drop(key, held);
    return this.deps.identities.authFailed(config, caller, err);
  }

  /** `uri` was subscribed on `caller`'s connection to `server` (which keeps it from being closed as idle). */
  subscribed(server: string, caller: string, uri: string): void {
    this.entries.get(keyOf(server, caller))?.subscribed.add(uri);
  }

  /**
   * `uri` is no longer wanted on `caller`'s connection to `server`: whether a live connection holds it
   * upstream (to unsubscribe there); a lost connection's subscription is simply not made again.
   */
  unsubscribed(server: string, caller: string, uri: string): boolean {
    const key = keyOf(server, caller);
    const lost = this.lostSubscriptions.get(key);
    if (lost?.delete(uri) && lost.size === 0) this.lostSubscriptions.delete(key);
    const entry = this.entries.get(key);
    return entry?.subscribed.delete(uri) === true && entry.settled;
  }

  /** Connections held now, per server. */
  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of this.entries.values()) if (e.client?.status.kind === 'ready') out.set(e.server, (out.get(e.server) ?? 0) + 1);
    return out;
  }

  /** Every ready connection of `server`, with its caller (roots changes, logging levels). */
  readyClients(server: string): McpClient[] {
    return [...this.entries.values()].filter((e) => e.server === server && e.client?.status.kind === 'ready').map((e) => e.client!);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweep);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(all.map(async (e) => (await e.ready.catch(() => undefined))?.close()));
  }

  private open(config: McpServerConfig, caller: UpstreamCaller, key: string): Entry {
    this.makeRoom(config.name);
    const subscribed = this.lostSubscriptions.get(key) ?? new Set<string>();
    this.lostSubscriptions.delete(key);
    const entry = { server: config.name, caller: caller.key, auth: undefined, client: undefined, tools: undefined, cache: undefined, lastUsed: this.now(), settled: false, subscribed } as Omit<Entry, 'ready'> & { ready?: Promise<McpClient> };
    const ready = this.connect(config, caller, entry as Entry).catch(async (err: unknown) => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      this.keepLost(key, entry as Entry);
      await entry.client?.close().catch(() => {});
      throw isMcpClientError(err, 'auth_required') && entry.auth ? await this.deps.identities.authFailed(config, caller, err) : err;
    });
    entry.ready = ready;
    ready.catch(() => {});
    this.entries.set(key, entry as Entry);
    return entry as Entry;
  }

  private async connect(config: McpServerConfig, caller: UpstreamCaller, entry: Entry): Promise<McpClient> {
    entry.auth = await this.deps.identities.authFor(config, caller);
    const host = this.deps.handlersFor(config.name, caller.key);
    const handlers: McpClientHandlers = {
      ...host,
      // The host hears of it once the caller's list was read again: what it tells that caller's clients is then true.
      onToolsListChanged: () => void this.relist(entry).then(() => host.onToolsListChanged?.()),
      // A new upstream session (the old one expired, say the server restarted) holds no subscription.
      onSessionRecovered: (event) => {
        host.onSessionRecovered?.(event);
        if (entry.client) void this.resubscribe(entry, entry.client, startupTimeoutMs(config));
      },
      onStateChange: (state) => {
        host.onStateChange?.(state);
        if (state.kind === 'failed') {
          const key = keyOf(entry.server, entry.caller);
          if (this.entries.get(key) === entry) this.drop(key, entry);
        }
      },
    };
    const client = await this.deps.createClient(config, handlers, { auth: entry.auth.provider });
    entry.client = client;
    const budget = startupTimeoutMs(config);
    await client.connect({ timeoutMs: budget });
    await this.relist(entry, budget);
    await this.resubscribe(entry, client, budget);
    // Idle from now, not from when connecting began.
    entry.lastUsed = this.now();
    entry.settled = true;
    return client;
  }

  private async relist(entry: Entry, timeoutMs?: number): Promise<void> {
    const client = entry.client;
    if (!client) return;
    try {
      const { tools, cache } = await client.listToolsWithCache(timeoutMs === undefined ? {} : { timeoutMs });
      entry.tools = tools;
      entry.cache = cache;
      this.deps.onTools(entry.server, entry.caller, tools, cache);
    } catch (err) {
      if (timeoutMs !== undefined) throw err;
      this.deps.logger.warn(`failed to refresh a caller's tools of MCP server '${entry.server}': ${errorMessage(err)}`);
    }
  }

  /** The connection's subscriptions made again upstream (on a new connection or session); a URI that fails is dropped. */
  private async resubscribe(entry: Entry, client: McpClient, timeoutMs: number): Promise<void> {
    if (entry.subscribed.size === 0) return;
    const failed = await resubscribe(client, entry.subscribed, { server: entry.server, logger: this.deps.logger, connection: "a caller's own", timeoutMs });
    for (const uri of failed) entry.subscribed.delete(uri);
  }

  private keepLost(key: string, entry: Entry): void {
    if (this.closed || entry.subscribed.size === 0) return;
    this.lostSubscriptions.set(key, entry.subscribed);
  }

  /** Past the bound, close the least recently used idle connection; refuse when every one is busy. */
  private makeRoom(server: string): void {
    while (this.entries.size >= this.maxConnections) {
      let victim: [string, Entry] | undefined;
      for (const pair of this.entries) {
        const e = pair[1];
        if (idle(e) && (!victim || e.lastUsed < victim[1].lastUsed)) victim = pair;
      }
      if (!victim) {
        throw new McpClientError('server_unavailable', `MCP server '${server}' is unavailable for this caller: all ${this.maxConnections} caller connections are busy; retry when one finishes`);
      }
      this.drop(victim[0], victim[1]);
    }
  }

  private evictIdle(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [key, e] of this.entries) {
      // Only a settled connection: one still connecting has requests waiting for it.
      if (idle(e) && e.lastUsed <= cutoff) this.drop(key, e);
    }
  }

  private drop(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    this.keepLost(key, entry);
    void entry.ready.then(
      (c) => c.close(),
      () => {},
    );
  }
}
