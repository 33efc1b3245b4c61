// Traffic an upstream server starts (elicitation, sampling, roots, log messages) travels to the gateway's
// client tied to the downstream request that is running on that server: over HTTP it rides that
// request's SSE stream. Progress and cancellation are tied per request by token and signal.
import type { ElicitResult, ListRootsResult, LoggingLevel, Server, ServerContext } from '@modelcontextprotocol/server';
import type { HandlerContext, McpClientHandlers } from '../mcp-client/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import { SERVER_META_KEY } from './resource-routes.js';

/** setTimeout's ceiling: a user may take as long as they need; the upstream's own deadline decides. */
const NO_TIMEOUT_MS = 2_147_483_647;
/** The `logger` of the gateway's own status lines (upstream failures), apart from relayed ones. */
export const STATUS_LOGGER = 'switchboard';
const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

type Notification = Parameters<ServerContext['mcpReq']['notify']>[0];
type SamplingAnswer = ReturnType<NonNullable<McpClientHandlers['sampling']>>;

/** One downstream request while it waits on an upstream server. */
export class DownstreamRequest {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly ctx: ServerContext,
    private readonly logger: Logger,
  ) {}

  /** Sends on the request's own stream; the request answers only after these went out. */
  notify(notification: Notification): void {
    const sent = this.ctx.mcpReq.notify(notification).catch((err: unknown) => this.logger.debug('gateway: notification not delivered', { error: errorMessage(err) }));
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
  }

  /** notifications/progress for the client's progressToken, if it sent one. */
  progress(update: { progress: number; total?: number; message?: string }): void {
    const token = this.ctx.mcpReq._meta?.progressToken;
    if (token === undefined) return;
    this.notify({ method: 'notifications/progress', params: { progressToken: token, ...update } });
  }

  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  async flushed(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

export interface RelayOptions {
  /** Attribute log messages to their server (aggregating mode); a transparent gateway passes them as is. */
  attributeLogs: boolean;
  sampling: boolean;
  /** The client has roots: upstreams' roots/list is passed on to it. */
  roots: boolean;
}

export class Relay {
  private readonly active = new Map<string, DownstreamRequest[]>();
  private level: LoggingLevel | undefined;

  constructor(
    private readonly server: Server,
    private readonly logger: Logger,
    private readonly options: RelayOptions,
  ) {}

  get activeCount(): number {
    let n = 0;
    for (const list of this.active.values()) n += list.length;
    return n;
  }

  /** The client's logging/setLevel threshold, applied to messages passed on. */
  setLevel(level: LoggingLevel): void {
    this.level = level;
  }

  /**
   * Runs `fn` for a downstream request bound to `upstream`: while it runs, what that server starts
   * goes to this request (the newest one, when several run on the same server).
   */
  async within<T>(upstream: string, ctx: ServerContext, fn: (request: DownstreamRequest) => Promise<T>): Promise<T> {
    const request = new DownstreamRequest(ctx, this.logger);
    const list = this.active.get(upstream) ?? [];
    list.push(request);
    this.active.set(upstream, list);
    try {
      return await fn(request);
    } finally {
      const i = list.indexOf(request);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.active.delete(upstream);
      if (request.hasPending) await request.flushed();
    }
  }

  /** The upstream-facing handlers for one server. */
  handlersFor(upstream: string): Pick<McpClientHandlers, 'elicitation' | 'sampling' | 'listRoots' | 'onLog' | 'onElicitationComplete'> {
    return {
      elicitation: (params, hctx) => this.request(upstream, 'elicitation/create', params, hctx) as Promise<ElicitResult>,
      ...(this.options.sampling ? { sampling: (params, hctx) => this.request(upstream, 'sampling/createMessage', params, hctx) as SamplingAnswer } : {}),
      ...(this.options.roots ? { listRoots: async (hctx) => ((await this.request(upstream, 'roots/list', undefined, hctx)) as ListRootsResult).roots } : {}),
      onLog: (params) => {
        if (!this.passes(params.level)) return;
        const logger = this.options.attributeLogs ? (params.logger ? `${upstream}/${params.logger}` : upstream) : params.logger;
        this.notify(upstream, { method: 'notifications/message', params: { ...params, ...(logger !== undefined ? { logger } : {}) } });
      },
      // The elicitation id was passed through unchanged with the elicitation/create it belongs to.
      onElicitationComplete: (params) => this.notify(upstream, { method: 'notifications/elicitation/complete', params }),
    };
  }

  /**
   * A status line of the gateway's own about `upstream` (logger "switchboard", the server named in
   * `_meta`), below the client's logging/setLevel threshold dropped like relayed messages.
   */
  status(upstream: string, level: LoggingLevel, text: string): void {
    if (!this.passes(level)) return;
    this.notify(upstream, { method: 'notifications/message', params: { level, logger: STATUS_LOGGER, data: text, _meta: { [SERVER_META_KEY]: upstream } } });
  }

  private passes(level: LoggingLevel): boolean {
    return this.level === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(this.level);
  }

  private target(upstream: string): DownstreamRequest | undefined {
    return this.active.get(upstream)?.at(-1);
  }

  private notify(upstream: string, notification: Notification): void {
    const target = this.target(upstream);
    if (target) return target.notify(notification);
    // Nothing running on that server: the session's own stream (the GET stream over HTTP).
    this.server.notification(notification).catch((err: unknown) => this.logger.debug('gateway: notification not delivered', { error: errorMessage(err) }));
  }

  /** A server-to-client request, passed on; the upstream cancelling it cancels it downstream too. */
  private async request(upstream: string, method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list', params: unknown, hctx: HandlerContext): Promise<unknown> {
    const request = params === undefined ? { method } : { method, params: params as Record<string, unknown> };
    const options = { signal: hctx.signal, timeout: NO_TIMEOUT_MS };
    const target = this.target(upstream);
    return target ? target.ctx.mcpReq.send(request, options) : this.server.request(request, options);
  }
}
