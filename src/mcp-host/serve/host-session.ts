// One 2025 connection (a stdio pipe, an HTTP session) as the host keeps it: the SDK server on it, the
// caller that opened it (seen through the rules in force), its requests in flight (a busy session is never closed for
// room or idleness) and, for products that answer a cancelled call, each request's own abort.
import { randomUUID } from 'node:crypto';
import type { ClientCapabilities, InputRequest, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { errorMessage, type Logger } from '../../util/index.js';
import { UNRESTRICTED, type AccessPolicy, type CallerView } from '../access/access-rules.js';
import type { Caller } from '../access/caller.js';
import type { Notification, Session } from './product.js';

/** setTimeout's ceiling: a question may wait as long as its user needs. */
const NO_TIMEOUT_MS = 2_147_483_647;
const AnyResult = z.unknown();

export class HostSession implements Session {
  readonly id = randomUUID();
  /** Who opened it, set at initialize (over stdio nobody: the local user). */
  caller: Caller | undefined;
  /** Requests being handled now. */
  inFlight = 0;
  /** Each request's own abort, by request key (products that answer a cancelled call). */
  readonly calls = new Map<string, AbortController>();
  private server: Server | undefined;
  private readonly closeListeners: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly logger: Logger,
    private readonly access?: AccessPolicy,
  ) {}

  /** What its caller may see and use under the rules in force now: a reload's new rules judge its next request. */
  get view(): CallerView {
    return this.access?.viewFor(this.caller) ?? UNRESTRICTED;
  }

  attach(server: Server): void {
    this.server = server;
  }

  // Typed by name: an inferred type here is the SDK's whole schema spelled out in the declarations,
  // which TypeScript 7 emits in a form TypeScript 6 rejects (a user's tsc without skipLibCheck).
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.server?.getClientCapabilities();
  }

  get protocolVersion(): string | undefined {
    return this.server?.getNegotiatedProtocolVersion();
  }

  notify(notification: Notification): void {
    if (this.closed || !this.server) return;
    this.server.notification(notification as Parameters<Server['notification']>[0]).catch((err: unknown) => this.logger.debug('notification not delivered', { method: notification.method, error: errorMessage(err) }));
  }

  request(request: InputRequest & { params: Record<string, unknown> }, signal: AbortSignal): Promise<unknown> {
    if (!this.server) return Promise.reject(new Error('the session is not connected'));
    return (this.server.request as (r: unknown, schema: unknown, o: unknown) => Promise<unknown>)(request, AnyResult, { signal, timeout: NO_TIMEOUT_MS });
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** The connection ended: its requests are aborted, its listeners told (once). */
  ended(): void {
    if (this.closed) return;
    this.closed = true;
    for (const call of this.calls.values()) call.abort();
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch (err) {
        this.logger.warn('a session close listener failed', { error: errorMessage(err) });
      }
    }
  }

  async close(): Promise<void> {
    this.ended();
    await this.server?.close().catch(() => {});
  }
}
