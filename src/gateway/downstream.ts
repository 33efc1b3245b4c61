// The gateway's downstream clients, as the relay and the pool see them: a 2025 session (its log
// level, its coalesced list-changed notifications, the view of its caller; it joins the pool once
// initialized and leaves when it closes) and a 2026-07-28 request (its own capabilities, log level
// and view; no stream outside its request).
import { LOG_LEVEL_META_KEY, type ClientCapabilities, type LoggingLevel } from '@modelcontextprotocol/server';
import type { Req, Session } from '../mcp-host/index.js';
import { errorMessage } from '../util/index.js';
import { levelPasses, type GatewayPool, type PoolClient } from './gateway-pool.js';
import { ListChangedNotifier, type ListKind } from './list-changed.js';
import type { Notification, RelayClient } from './relay.js';

export class SessionClient implements PoolClient {
  private level: LoggingLevel | undefined;
  private readonly notifier: ListChangedNotifier;

  constructor(
    readonly session: Session,
    pool: GatewayPool,
  ) {
    this.notifier = new ListChangedNotifier(async (method) => session.notify({ method }), pool.logger);
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.session.clientCapabilities;
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
    return this.session.view.sees(server);
  }

  get callerKey(): string | undefined {
    return this.session.caller?.kind === 'token' ? this.session.caller.key : undefined;
  }

  notify(notification: Notification): void {
    this.session.notify(notification);
  }

  listChanged(...kinds: ListKind[]): void {
    this.notifier.changed(...kinds);
  }

  dispose(): void {
    this.notifier.dispose();
  }
}

/** One 2026-07-28 request: its own capabilities, log level (`_meta`) and view. */
class RequestClient implements RelayClient {
  readonly clientCapabilities: ClientCapabilities | undefined;
  private readonly level: LoggingLevel | undefined;

  constructor(private readonly req: Req) {
    this.clientCapabilities = req.clientCapabilities;
    const level = req.envelope?.[LOG_LEVEL_META_KEY];
    this.level = typeof level === 'string' ? (level as LoggingLevel) : undefined;
  }

  passes(level: LoggingLevel): boolean {
    return levelPasses(this.level, level);
  }

  sees(server: string): boolean {
    return this.req.view.sees(server);
  }

  /** Outside its request a 2026-07-28 client has no stream. */
  notify(_notification: Notification): void {}
}

/** The gateway's clients: one per 2025 session (joining the pool once it initialized), one per 2026-07-28 request. */
export class Downstream {
  private readonly sessions = new WeakMap<Session, SessionClient>();

  constructor(private readonly pool: GatewayPool) {}

  /** The client a request comes from. */
  of(req: Req): RelayClient {
    return req.session ? this.session(req.session) : new RequestClient(req);
  }

  /** A session's client, made on first need. */
  session(session: Session): SessionClient {
    let client = this.sessions.get(session);
    if (!client) {
      client = new SessionClient(session, this.pool);
      this.sessions.set(session, client);
    }
    return client;
  }

  /** A session initialized: it hears list changes and status lines from now on, until it closes. */
  opened(session: Session): void {
    const client = this.session(session);
    this.pool.join(client);
    session.onClose(() => {
      client.dispose();
      this.pool.leave(client).catch((err: unknown) => this.pool.logger.debug('gateway: leaving the pool failed', { error: errorMessage(err) }));
    });
  }
}
