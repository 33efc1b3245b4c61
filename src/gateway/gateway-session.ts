// One client of the gateway (a stdio pipe or one HTTP session): an SDK server that re-serves the
// aggregated catalog of the configured MCP servers over the gateway's shared pool of upstream
// connections. It holds only its own protocol state: its log level, its list-change notifier.
import type { Server, ClientCapabilities, InitializeRequest, InitializeResult, LoggingLevel, ServerContext, Transport } from '@modelcontextprotocol/server';
import { TaskServer, UNRESTRICTED, type CallerView } from '../mcp-host/index.js';
import { errorMessage, SwitchboardError, type Logger } from '../util/index.js';
import type { CatalogView, GatewayMode } from './catalog-view.js';
import { gatewayCapabilities, type GatewayClient } from './gateway-client.js';
import { registerGatewayHandlers } from './gateway-handlers.js';
import { viewOf } from './caller-view.js';
import { levelPasses, type GatewayPool } from './gateway-pool.js';
import { ListChangedNotifier, type ListKind } from './list-changed.js';
import { registerToolSearchHandlers } from './tool-search-handlers.js';
import type { Notification, RelayClient } from './relay.js';
import { GATEWAY_TASKS_CAPABILITY, registerTaskHandlers } from './task-handlers.js';
import type { Upstreams } from './upstreams.js';

/** 2025-era revisions only: the relay is built on server-to-client requests, which 2026-07-28 removed. */
export const GATEWAY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/**
 * The SDK answers initialize with the instructions given at construction, before any upstream is
 * connected; the gateway sets them when the request comes and lets the SDK answer as usual.
 */
interface SdkServerInternals {
  _instructions: string | undefined;
  _oninitialize(request: InitializeRequest): Promise<InitializeResult>;
}

export class GatewaySession implements GatewayClient {
  readonly era = 'legacy';
  readonly server: Server;
  private closed = false;
  private readonly notifier: ListChangedNotifier;
  private readonly closeListeners: (() => void)[] = [];
  private level: LoggingLevel | undefined;
  /** The view of the caller that opened the session (set at initialize; over stdio the local user's). */
  private view: CallerView = UNRESTRICTED;

  constructor(
    readonly pool: GatewayPool,
    readonly observed?: Transport,
  ) {
    const { options } = pool;
    this.server = new TaskServer(
      { name: options.name, title: options.title, version: options.version },
      {
        capabilities: { ...gatewayCapabilities(), tasks: GATEWAY_TASKS_CAPABILITY },
        supportedProtocolVersions: GATEWAY_PROTOCOL_VERSIONS,
      },
    );
    this.notifier = new ListChangedNotifier((method) => this.server.notification({ method }), pool.logger);
    registerGatewayHandlers(this);
    registerTaskHandlers(this);
    if (options.toolSearch) registerToolSearchHandlers(this, options.toolSearch);
    // The upstreams' instructions are known once they are connected: initialize waits for them.
    const sdk = this.server as unknown as SdkServerInternals;
    this.server.setRequestHandler('initialize', async (request, ctx) => {
      this.view = viewOf(options.access, ctx);
      sdk._instructions = await pool.instructions(this.view);
      return sdk._oninitialize(request);
    });
    // Upstreams start (if no earlier client started them) once a client has initialized.
    this.server.oninitialized = () => {
      if (!this.closed) pool.join(this);
    };
    this.server.onerror = (err) => pool.logger.debug('gateway connection error', { error: errorMessage(err) });
    this.server.onclose = () => void this.close();
  }

  get logger(): Logger {
    return this.pool.logger;
  }

  get mode(): GatewayMode {
    return this.pool.mode;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.server.getClientCapabilities();
  }

  /** Requests of this client waiting on upstream servers right now. */
  get activeRequests(): number {
    return this.closed ? 0 : (this.pool.peekUpstreams()?.relay.activeCount(this) ?? 0);
  }

  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
  }

  /** Runs once the connection has closed (stdin EOF, session deleted, close()). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** The gateway's shared upstream side. */
  upstreams(): Upstreams {
    if (this.closed) throw new SwitchboardError('closed', 'the gateway session is closed');
    return this.pool.upstreams();
  }

  get catalog(): CatalogView {
    return this.upstreams().catalog;
  }

  /** The client's logging/setLevel: what it is sent, and (the most verbose of all clients) upstreams' level. */
  get loggingLevel(): LoggingLevel | undefined {
    return this.level;
  }

  setLoggingLevel(level: LoggingLevel): void {
    this.level = level;
  }

  passes(level: LoggingLevel): boolean {
    return levelPasses(this.level, level);
  }

  sees(server: string): boolean {
    return this.view.sees(server);
  }

  /** A 2025 client is asked during the request itself (server-to-client requests on its stream). */
  rounds<R>(ctx: ServerContext, _subject: string, work: (ctx: ServerContext, client: RelayClient) => Promise<R>): Promise<R> {
    return work(ctx, this);
  }

  notify(notification: Notification): void {
    if (this.closed) return;
    this.server.notification(notification).catch((err: unknown) => this.logger.debug('gateway: notification not delivered', { error: errorMessage(err) }));
  }

  listChanged(...kinds: ListKind[]): void {
    this.notifier.changed(...kinds);
  }

  /** Ends this client's connection; the upstreams stay for the other clients. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.notifier.dispose();
    await this.pool.leave(this).catch((err: unknown) => this.logger.debug('gateway: leaving the pool failed', { error: errorMessage(err) }));
    await this.server.close().catch(() => {});
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
