// Traffic an upstream server starts (elicitation, sampling, roots, log messages) travels to the client
// whose request is running on that server, across every client sharing the gateway's one pool of
// upstreams: over HTTP it rides that request's SSE stream. A 2026-07-28 server's questions are tied
// to their call (its input-required result), so each goes to that call's client however many run;
// a 2025 server's requests and log messages are not, so they go to the newest request on that server.
// Progress and cancellation are tied per request by token and signal.
import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type ClientCapabilities,
  type ElicitResult,
  type InputRequest,
  type ListRootsResult,
  type LoggingLevel,
  type Root,
} from '@modelcontextprotocol/server';
import type { HandlerContext, InputHandlers, McpClientHandlers } from '../mcp-client/index.js';
import type { Notification, Req } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import { SERVER_META_KEY } from './resource-routes.js';

type RelayedMethod = 'elicitation/create' | 'sampling/createMessage';
/** The `logger` of the gateway's own status lines (upstream failures), apart from relayed ones. */
export const STATUS_LOGGER = 'switchboard';
/** URL elicitations remembered until their completion notice (oldest forgotten first). */
const MAX_OPEN_URL_ELICITATIONS = 1024;

type SamplingAnswer = ReturnType<NonNullable<McpClientHandlers['sampling']>>;
export type { Notification };

/** One downstream client (a 2025 session, one 2026-07-28 request) as the relay sees it. */
export interface RelayClient {
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Whether a message at `level` passes the client's logging/setLevel. */
  passes(level: LoggingLevel): boolean;
  /** Whether anything of `server` is in the client's view: what does not concern it never reaches it. */
  sees(server: string): boolean;
  /** Sends on the client's own stream (the GET stream over HTTP), outside any request. */
  notify(notification: Notification): void;
}

/** Asks about an upstream's task: the question goes to that task's client (host-tasks), never to a request on the server. */
export type TaskAsker = (request: InputRequest, options: { key?: string; signal: AbortSignal }) => Promise<unknown>;

/** One downstream request while it waits on an upstream server. */
export class DownstreamRequest {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly client: RelayClient,
    readonly req: Req,
    private readonly logger: Logger,
  ) {}

  /** Sends on the request's own stream; the request answers only after these went out. */
  notify(notification: Notification): void {
    const sent = this.req.notify(notification).catch((err: unknown) => this.logger.debug('gateway: notification not delivered', { error: errorMessage(err) }));
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
  }

  /** notifications/progress for the client's progressToken, if it sent one. */
  progress(update: { progress: number; total?: number; message?: string }): void {
    const token = this.req.meta?.progressToken;
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
  /** The gateway's own roots: for upstream roots/list outside a request, or from a client without roots. */
  roots: Root[];
  /** Every client now, for what concerns them all (status lines, log messages outside requests). */
  clients(): Iterable<RelayClient>;
  /**
   * Who answers what an upstream says about its task `taskId`, if the gateway holds it: its asker, and
   * the 2025 client that created it (which hears the task's log messages; a 2026-07-28 one has no stream).
   */
  taskAsker?(upstream: string, taskId: string, caller?: string): { asker: TaskAsker; client: RelayClient | undefined } | undefined;
}

export class Relay {
  private readonly active = new Map<string, DownstreamRequest[]>();
  /** elicitationId → the client asked, so only it hears the completion. */
  private readonly urlElicitations = new Map<string, RelayClient>();

  constructor(
    private readonly logger: Logger,
    private readonly options: RelayOptions,
  ) {}

  /** Requests of `client` (every client when omitted) waiting on upstream servers. */
  activeCount(client?: RelayClient): number {
    let n = 0;
    for (const list of this.active.values()) for (const r of list) if (client === undefined || r.client === client) n += 1;
    return n;
  }

  /**
   * Runs `fn` for a downstream request of `client` bound to `upstream`: while it runs, what that server
   * starts goes to this request (the newest one, when several run on the same server).
   */
  async within<T>(upstream: string, client: RelayClient, req: Req, fn: (request: DownstreamRequest) => Promise<T>): Promise<T> {
    const request = new DownstreamRequest(client, req, this.logger);
    const list = this.active.get(upstream) ?? [];
    list.push(request);
    this.active.set(upstream, list);
    try {
      return await fn(request);
    } finally {
      const i = list.indexOf(request);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0 && this.active.get(upstream) === list) this.active.delete(upstream);
      if (request.hasPending) await request.flushed();
    }
  }

  /** A client went away: forget what only it was waiting for. */
  forget(client: RelayClient): void {
    for (const [id, c] of this.urlElicitations) if (c === client) this.urlElicitations.delete(id);
  }

  /**
   * Who answers the input requests of `call` (a 2026-07-28 server's input-required results name the
   * call they belong to): always that call's own client, however many others run on the server.
   */
  inputsFor(call: DownstreamRequest): InputHandlers {
    return {
      elicitation: (params, hctx) => this.ask(call, 'elicitation/create', params, hctx) as Promise<ElicitResult>,
      sampling: (params, hctx) => this.ask(call, 'sampling/createMessage', params, hctx) as SamplingAnswer,
      listRoots: (hctx) => this.rootsOf(call, hctx),
    };
  }

  /**
   * The upstream-facing handlers for one server: its requests tied to no call (a 2025 server's).
   * `caller`: for that caller's own connection (a server that acts as each caller), whose traffic
   * goes to that caller's requests only, never to another caller's.
   */
  handlersFor(upstream: string, caller?: string): Pick<McpClientHandlers, 'elicitation' | 'sampling' | 'listRoots' | 'onLog' | 'onElicitationComplete'> {
    return {
      elicitation: (params, hctx) => this.request(upstream, 'elicitation/create', params, hctx, caller) as Promise<ElicitResult>,
      sampling: (params, hctx) => this.request(upstream, 'sampling/createMessage', params, hctx, caller) as SamplingAnswer,
      listRoots: (hctx) => {
        const target = this.target(upstream, caller);
        return !target || target === 'ambiguous' ? Promise.resolve(this.options.roots) : this.rootsOf(target, hctx);
      },
      onLog: (params) => {
        const logger = this.options.attributeLogs ? (params.logger ? `${upstream}/${params.logger}` : upstream) : params.logger;
        const notification: Notification = { method: 'notifications/message', params: { ...params, ...(logger !== undefined ? { logger } : {}) } };
        // About a task the gateway holds: its client hears it (a 2026-07-28 one has no stream to hear it on), and no other.
        const related = this.relatedAsker(upstream, params, caller);
        if (related) {
          if (related.client?.passes(params.level) && related.client.sees(upstream)) related.client.notify(notification);
          else if (!related.client) this.logger.debug('gateway: log message of a 2026-07-28 task dropped', { server: upstream });
          return;
        }
        const target = this.target(upstream, caller);
        // A message during a request belongs to that request's client; outside one, to every client;
        // while several clients' calls run there, to none (it may concern any of them).
        if (target === 'ambiguous') return this.logger.debug('gateway: log message of a server busy with several clients dropped', { server: upstream });
        if (target) {
          if (target.client.passes(params.level) && target.client.sees(upstream)) target.notify(notification);
          return;
        }
        // One caller's connection, outside its requests: no other client may hear it.
        if (caller !== undefined) return this.logger.debug('gateway: log message of a caller connection outside its requests dropped', { server: upstream });
        for (const client of this.options.clients()) if (client.passes(params.level) && client.sees(upstream)) client.notify(notification);
      },
      onElicitationComplete: (params) => {
        const client = this.urlElicitations.get(params.elicitationId);
        this.urlElicitations.delete(params.elicitationId);
        if (!client) return this.logger.debug('gateway: elicitation complete for no known client', { server: upstream, elicitationId: params.elicitationId });
        this.toClient(upstream, client, { method: 'notifications/elicitation/complete', params });
      },
    };
  }

  /**
   * A status line of the gateway's own about `upstream` (logger "switchboard", the server named in
   * `_meta`) to every client (or those given) whose logging/setLevel lets it pass and who sees that server.
   */
  status(upstream: string, level: LoggingLevel, text: string, clients: Iterable<RelayClient> = this.options.clients()): void {
    const notification: Notification = { method: 'notifications/message', params: { level, logger: STATUS_LOGGER, data: text, _meta: { [SERVER_META_KEY]: upstream } } };
    for (const client of clients) if (client.passes(level) && client.sees(upstream)) this.toClient(upstream, client, notification);
  }

  /**
   * The request whose client what `upstream` starts outside a call's input-required result belongs to.
   * Nothing links a 2025 server's request or a log message to the call that caused it, so while calls
   * of several clients run on that server it is `ambiguous`: better refused than shown to a client it
   * may not concern.
   */
  private target(upstream: string, caller?: string): DownstreamRequest | 'ambiguous' | undefined {
    const all = caller === undefined ? this.active.get(upstream) : this.active.get(upstream)?.filter((r) => r.req.caller?.key === caller);
    // A request whose questions went out and that waits for its client's retry is not asking now
    // (its client may never come back); the others are the candidates.
    const live = all?.filter((r) => !r.req.suspended);
    const running = live && live.length > 0 ? live : all;
    const newest = running?.at(-1);
    if (!newest) return undefined;
    return running!.every((r) => r.client === newest.client) ? newest : 'ambiguous';
  }

  /** The asker of the task that `params` names in its related-task `_meta`, if the gateway holds it. */
  private relatedAsker(upstream: string, params: unknown, caller: string | undefined): { asker: TaskAsker; client: RelayClient | undefined } | undefined {
    const related = ((params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
    return typeof related === 'string' ? this.options.taskAsker?.(upstream, related, caller) : undefined;
  }

  /** To `client`: on its newest request running on `upstream`, else on its own stream. */
  private toClient(upstream: string, client: RelayClient, notification: Notification): void {
    const mine = this.active.get(upstream)?.findLast((r) => r.client === client);
    if (mine) mine.notify(notification);
    else client.notify(notification);
  }

  /**
   * A server-to-client request tied to no call, passed on to the client whose request runs on that
   * server; one about a 2026-07-28 client's task (its related-task `_meta`) goes to that task's questions.
   */
  private async request(upstream: string, method: RelayedMethod, params: unknown, hctx: HandlerContext, caller: string | undefined): Promise<unknown> {
    const related = this.relatedAsker(upstream, params, caller);
    if (related) return related.asker({ method, params } as InputRequest, { signal: hctx.signal });
    const target = this.target(upstream, caller);
    if (!target) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `no client request is running on MCP server '${upstream}' to pass ${method} on to`);
    if (target === 'ambiguous') {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `calls of several clients are running on MCP server '${upstream}', and nothing says which one this ${method} belongs to; the gateway refuses it rather than ask the wrong client`,
      );
    }
    return this.ask(target, method, params, hctx);
  }

  /**
   * `method` passed on to the client of `target`, or refused on its behalf; the upstream cancelling
   * it cancels it downstream too.
   */
  private async ask(target: DownstreamRequest, method: RelayedMethod, params: unknown, hctx: HandlerContext): Promise<unknown> {
    const p = params as Record<string, unknown>;
    // The request refuses what its client cannot take, as that client's revision says.
    const answer = target.req.ask({ method, params: p } as InputRequest, { ...(hctx.inputKey !== undefined ? { key: hctx.inputKey } : {}), signal: hctx.signal });
    // Only a 2025 session hears the completion of a URL elicitation (a 2026-07-28 client has no stream for it).
    if (target.req.era === 'legacy' && method === 'elicitation/create' && p.mode === 'url' && typeof p.elicitationId === 'string') this.rememberUrlElicitation(p.elicitationId, target.client);
    return answer;
  }

  /** The roots of `target`'s client; the gateway's own for a client without roots. */
  private async rootsOf(target: DownstreamRequest, hctx: HandlerContext): Promise<Root[]> {
    if (target.req.clientCapabilities?.roots === undefined) return this.options.roots;
    const answer = (await target.req.ask({ method: 'roots/list' } as InputRequest, { ...(hctx.inputKey !== undefined ? { key: hctx.inputKey } : {}), signal: hctx.signal })) as ListRootsResult;
    return answer.roots;
  }

  private rememberUrlElicitation(id: string, client: RelayClient): void {
    this.urlElicitations.delete(id);
    this.urlElicitations.set(id, client);
    if (this.urlElicitations.size > MAX_OPEN_URL_ELICITATIONS) this.urlElicitations.delete(this.urlElicitations.keys().next().value!);
  }
}
