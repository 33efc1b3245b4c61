// One client of the gateway (a stdio pipe or one HTTP session): an SDK server that re-serves the
// aggregated catalog of the configured MCP servers. Its upstream connections are its own, opened once
// the client has said what it supports, so an upstream can elicit or sample only when this client can.
import { Server, type ClientCapabilities, type LoggingLevel, type Transport } from '@modelcontextprotocol/server';
import type { McpConnectionManager, McpManagerEvent } from '../mcp/index.js';
import { assertNever, errorMessage, SwitchboardError, type Logger } from '../util/index.js';
import type { CatalogView, GatewayMode } from './catalog-view.js';
import { registerGatewayHandlers } from './gateway-handlers.js';
import { ListChangedNotifier } from './list-changed.js';
import { openUpstreams, type GatewayUpstreamSetup, type Upstreams } from './upstreams.js';

/** 2025-era revisions only: the relay is built on server-to-client requests, which 2026-07-28 removed. */
export const GATEWAY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export interface GatewayOptions {
  name: string;
  title: string;
  version: string;
  mode: GatewayMode;
  instructions?: string;
}

export interface GatewayDeps {
  logger: Logger;
  /** A connection manager over the configured servers, with this session's handlers and client options. */
  createManager(setup: GatewayUpstreamSetup): McpConnectionManager;
}

type SessionState = { kind: 'waiting' } | { kind: 'serving'; upstreams: Upstreams } | { kind: 'closed' };

export class GatewaySession {
  readonly server: Server;
  private state: SessionState = { kind: 'waiting' };
  private readonly notifier: ListChangedNotifier;
  private readonly closeListeners: (() => void)[] = [];
  private level: LoggingLevel | undefined;
  /** The failure line last sent per server, until it is ready again. */
  private readonly failureShown = new Map<string, string>();
  /** Subscribed URIs and the server that serves each, renewed when that server reconnects. */
  readonly subscriptions = new Map<string, string>();

  constructor(
    readonly options: GatewayOptions,
    private readonly deps: GatewayDeps,
  ) {
    this.server = new Server(
      { name: options.name, title: options.title, version: options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          completions: {},
          logging: {},
        },
        supportedProtocolVersions: GATEWAY_PROTOCOL_VERSIONS,
        ...(options.instructions ? { instructions: options.instructions } : {}),
      },
    );
    this.notifier = new ListChangedNotifier((method) => this.server.notification({ method }), deps.logger);
    registerGatewayHandlers(this);
    // Upstreams start as soon as the client's capabilities are known.
    this.server.oninitialized = () => void this.upstreams();
    this.server.onerror = (err) => deps.logger.debug('gateway connection error', { error: errorMessage(err) });
    this.server.onclose = () => void this.close();
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  get mode(): GatewayMode {
    return this.options.mode;
  }

  /** Requests waiting on upstream servers right now. */
  get activeRequests(): number {
    return this.state.kind === 'serving' ? this.state.upstreams.relay.activeCount : 0;
  }

  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
  }

  /** Runs once the connection has closed (stdin EOF, session deleted, close()). */
  onClose(listener: () => void): void {
    if (this.state.kind === 'closed') listener();
    else this.closeListeners.push(listener);
  }

  /** The upstream side of this session, opened on first need. */
  upstreams(): Upstreams {
    switch (this.state.kind) {
      case 'serving':
        return this.state.upstreams;
      case 'waiting': {
        const capabilities: ClientCapabilities | undefined = this.server.getClientCapabilities();
        const upstreams = openUpstreams(this, capabilities, this.deps.createManager);
        this.state = { kind: 'serving', upstreams };
        upstreams.manager.start();
        return upstreams;
      }
      case 'closed':
        throw new SwitchboardError('closed', 'the gateway session is closed');
      default:
        return assertNever(this.state, 'session state');
    }
  }

  get catalog(): CatalogView {
    return this.upstreams().catalog;
  }

  /** The client's logging/setLevel, kept for servers that connect later. */
  get loggingLevel(): LoggingLevel | undefined {
    return this.level;
  }

  setLoggingLevel(level: LoggingLevel): void {
    this.level = level;
    if (this.state.kind === 'serving') this.state.upstreams.relay.setLevel(level);
  }

  /** What the manager reports becomes list_changed notifications and upkeep of routes. */
  onManagerEvent(event: McpManagerEvent): void {
    if (this.state.kind !== 'serving') return;
    const up = this.state.upstreams;
    switch (event.type) {
      case 'mcp_tools_changed':
        this.notifier.changed('tools');
        return;
      case 'mcp_startup_update':
        if (event.status.state === 'ready' || event.status.state === 'failed') {
          up.catalog.invalidatePrompts();
          up.routes.invalidate();
          this.notifier.changed('prompts', 'resources');
        }
        if (event.status.state === 'ready') {
          this.failureShown.delete(event.server);
          void up.reconnected(event.server);
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
   * An upstream failure as one status line for the client (and the log): the text of the manager's
   * failure update. A retry that fails the same way adds nothing, so it is not repeated.
   */
  private reportFailure(up: Upstreams, server: string, text: string): void {
    if (this.failureShown.get(server) === text) return;
    this.failureShown.set(server, text);
    this.logger.error(`gateway: ${text}`, { server });
    up.relay.status(server, 'error', text);
  }

  /** An upstream's prompts or resources list changed. */
  listChanged(kind: 'prompts' | 'resources'): void {
    if (this.state.kind !== 'serving') return;
    if (kind === 'prompts') this.state.upstreams.catalog.invalidatePrompts();
    else this.state.upstreams.routes.invalidate();
    this.notifier.changed(kind);
  }

  async close(): Promise<void> {
    if (this.state.kind === 'closed') return;
    const previous = this.state;
    this.state = { kind: 'closed' };
    this.notifier.dispose();
    await this.server.close().catch(() => {});
    if (previous.kind === 'serving') await previous.upstreams.manager.close();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
