// The manager's side for the servers that act as each caller (identity = "caller"): their pooled
// per-caller connections, the catalog each caller sees, and the reference list the shared catalog
// shows for such a server. The operator never connects to one of them: its tools come from a
// caller's connection, shared with every caller when the server says its list does not vary by user
// (2026-07-28 `cacheScope: "public"`); otherwise each connected caller sees its own list, and a caller
// not connected yet sees the last list any caller got (so it can find the server and be asked to log in).
import type { Tool } from '@modelcontextprotocol/client';
import { callerIdentityKind, type McpServerConfig } from '../config/index.js';
import type { ListCacheHint, McpClient, McpClientHandlers, UpstreamCaller, UpstreamIdentities } from '../mcp-client/index.js';
import { errorMessage, isMcpClientError, type Logger } from '../util/index.js';
import { CallerConnections, type CallerConnectionsOptions } from './caller-connections.js';
import { Catalog, type ServerTools } from './catalog.js';
import type { ClientFactory } from './client-factory.js';
import type { ManagedServer } from './managed-server.js';
import { raceSignal } from './manager-errors.js';
import type { TrustedServers } from './tool-metadata.js';
import { sanitizeNamePart } from './tool-naming.js';

/** Callers whose own catalogs are kept built (the least recently used are rebuilt on their next list). */
const MAX_CALLER_CATALOGS = 1_000;

export interface CallerServersDeps {
  createClient: ClientFactory;
  identities: UpstreamIdentities;
  logger: Logger;
  handlersFor(server: string, caller: string): McpClientHandlers;
  trusted: TrustedServers;
  maxNameBytes: number;
  managed(name: string): ManagedServer;
  /** A list every caller may see became the server's reference list: the shared catalog changes. */
  referenceChanged(server: ManagedServer): void;
}

export class CallerServers {
  readonly connections: CallerConnections;
  readonly identities: UpstreamIdentities;
  /** Servers whose last list said it is the same for every user (2026-07-28 cacheScope "public"). */
  private readonly publicLists = new Set<string>();
  private readonly catalogs = new Map<string, { from: readonly (readonly Tool[])[]; catalog: Catalog }>();
  /** (caller, server) pairs whose last connection attempt failed (a login to make, a refused exchange). */
  private readonly unreached = new Set<string>();

  constructor(
    private readonly deps: CallerServersDeps,
    options: CallerConnectionsOptions = {},
  ) {
    this.identities = deps.identities;
    this.connections = new CallerConnections(
      {
        createClient: deps.createClient,
        identities: deps.identities,
        logger: deps.logger,
        handlersFor: deps.handlersFor,
        onTools: (server, _caller, tools, cache) => this.onTools(server, tools, cache),
      },
      options,
    );
  }

  /** The caller side of a manager whose `servers` include caller servers, when it serves callers (`identities`); else undefined. */
  static open(servers: readonly ManagedServer[], deps: Omit<CallerServersDeps, 'identities'> & { identities: UpstreamIdentities | undefined }, options?: CallerConnectionsOptions): CallerServers | undefined {
    const names = servers.filter((s) => CallerServers.actsAsCaller(s.config)).map((s) => s.name);
    const { identities } = deps;
    if (!identities || names.length === 0) return undefined;
    const side = new CallerServers({ ...deps, identities }, options);
    side.names = names;
    return side;
  }

  /** Whether `config`'s server acts as each caller. */
  static actsAsCaller(config: McpServerConfig): boolean {
    return callerIdentityKind(config) !== undefined;
  }

  /**
   * The catalog `caller` sees, from the shared contributions: for each caller server whose list may
   * vary by user, the caller's own list once it has a connection (made here on first use, when its
   * credential allows it without a login). Undefined when it is the shared catalog.
   */
  async catalogFor(caller: UpstreamCaller, shared: readonly ServerTools[], signal?: AbortSignal): Promise<Catalog | undefined> {
    const varying = this.names.filter((s) => !this.publicLists.has(s));
    if (varying.length === 0) return undefined;
    await raceSignal(Promise.all(varying.filter((s) => !this.connections.holds(s, caller.key)).map((s) => this.tryConnect(s, caller))), signal);
    const mine = new Map<string, readonly Tool[]>();
    for (const s of varying) {
      const own = this.connections.toolsOf(s, caller.key);
      if (own) mine.set(s, own.tools);
    }
    if (mine.size === 0) return undefined;
    const contributions = shared.filter((c) => !mine.has(c.server));
    for (const [server, tools] of mine) contributions.push({ server, tools, source: 'live', filter: this.deps.managed(server).filter });
    return this.cachedCatalog(caller.key, contributions);
  }

  /**
   * A name no catalog of `caller` holds, under the `mcp__<server>__` prefix of a caller server it
   * could not connect to: that server and the raw name, so that calling it asks the caller to log in
   * (or says why the connection failed) rather than answering "unknown tool".
   */
  unreachedTool(name: string, caller: string): { server: string; tool: string } | undefined {
    for (const server of this.names) {
      const prefix = `mcp__${sanitizeNamePart(server)}__`;
      if (this.unreached.has(`${caller}\u0000${server}`) && name.startsWith(prefix) && name.length > prefix.length) return { server, tool: name.slice(prefix.length) };
    }
    return undefined;
  }

  /** The catalog last built for `caller` (undefined: it sees the shared one). */
  catalogSeen(caller: string): Catalog | undefined {
    return this.catalogs.get(caller)?.catalog;
  }

  async close(): Promise<void> {
    await this.connections.close();
  }

  /** The caller servers, in config order. */
  private names: string[] = [];

  private async tryConnect(server: string, caller: UpstreamCaller): Promise<McpClient | undefined> {
    const key = `${caller.key}\u0000${server}`;
    try {
      const client = await this.connections.client(this.deps.managed(server).config, caller);
      this.unreached.delete(key);
      return client;
    } catch (err) {
      this.unreached.delete(key);
      this.unreached.add(key);
      if (this.unreached.size > MAX_CALLER_CATALOGS) this.unreached.delete(this.unreached.values().next().value!);
      // A caller who must log in first sees the reference list; calling a tool asks for the login.
      if (!isMcpClientError(err, 'upstream_login_required')) this.deps.logger.warn(`could not connect a caller to MCP server '${server}': ${errorMessage(err)}`);
      return undefined;
    }
  }

  private cachedCatalog(caller: string, contributions: ServerTools[]): Catalog {
    const from = contributions.map((c) => c.tools);
    const held = this.catalogs.get(caller);
    if (held && held.from.length === from.length && held.from.every((t, i) => t === from[i])) {
      this.catalogs.delete(caller);
      this.catalogs.set(caller, held);
      return held.catalog;
    }
    const catalog = Catalog.build(contributions, this.deps.trusted, this.deps.maxNameBytes);
    this.catalogs.delete(caller);
    this.catalogs.set(caller, { from, catalog });
    if (this.catalogs.size > MAX_CALLER_CATALOGS) this.catalogs.delete(this.catalogs.keys().next().value!);
    return catalog;
  }

  /** A caller's connection listed tools: a public list, or the first list of a server, becomes its reference list. */
  private onTools(server: string, tools: Tool[], cache: ListCacheHint | undefined): void {
    const managed = this.deps.managed(server);
    const isPublic = cache?.scope === 'public';
    if (isPublic) this.publicLists.add(server);
    else this.publicLists.delete(server);
    if (!isPublic && managed.tools !== undefined) return;
    // Kept in memory only: a list that may be one caller's is never written to the snapshot files.
    managed.setSnapshot(tools);
    this.deps.referenceChanged(managed);
  }
}
