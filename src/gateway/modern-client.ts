// The gateway's server for 2026-07-28 clients: an SDK server with the same handlers a 2025 session
// has, on the shared pool (a fresh one per HTTP request). Each request is its own client to the
// relay: what an upstream asks while it runs becomes an input-required result, and the client's
// retry resumes the waiting upstream request.
import {
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  type Server,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  type LoggingLevel,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { requestCapabilities, TaskServer, type CallerView, type FlowChannel, type InputFlows } from '../mcp-host/index.js';
import { viewOf } from './caller-view.js';
import { errorMessage, type Logger } from '../util/index.js';
import { TASKS_EXTENSION } from '../protocol/values.js';
import type { CatalogView, GatewayMode } from './catalog-view.js';
import { gatewayCapabilities, MODERN_PROTOCOL_VERSION, type GatewayClient } from './gateway-client.js';
import { registerGatewayHandlers } from './gateway-handlers.js';
import { registerToolSearchHandlers } from './tool-search-handlers.js';
import { levelPasses, type GatewayPool } from './gateway-pool.js';
import type { Notification, RelayClient } from './relay.js';
import type { Upstreams } from './upstreams.js';
import { registerModernTaskHandlers } from './modern-task-handlers.js';

export class ModernGatewayClient implements GatewayClient {
  readonly server: Server;
  readonly era = 'modern';
  readonly loggingLevel = undefined;

  constructor(
    readonly pool: GatewayPool,
    private readonly flows: InputFlows,
    instructions: string | undefined,
    readonly observed?: Transport,
  ) {
    const { options } = pool;
    // A TaskServer: a tools/call may answer with a CreateTaskResult (the tasks extension).
    this.server = new TaskServer(
      { name: options.name, title: options.title, version: options.version },
      {
        capabilities: { ...gatewayCapabilities(), extensions: { [TASKS_EXTENSION]: {} } },
        supportedProtocolVersions: [MODERN_PROTOCOL_VERSION],
        ...(instructions ? { instructions } : {}),
      },
    );
    registerGatewayHandlers(this);
    registerModernTaskHandlers(this);
    if (options.toolSearch) registerToolSearchHandlers(this, options.toolSearch);
    this.server.onerror = (err) => pool.logger.debug('gateway request error', { error: errorMessage(err) });
  }

  get logger(): Logger {
    return this.pool.logger;
  }

  get mode(): GatewayMode {
    return this.pool.mode;
  }

  /** Outside a request: none known (each request carries its own, see RequestClient). */
  get clientCapabilities(): ClientCapabilities | undefined {
    return undefined;
  }

  upstreams(): Upstreams {
    return this.pool.upstreams();
  }

  get catalog(): CatalogView {
    return this.upstreams().catalog;
  }

  /** logging/setLevel is not a 2026-07-28 method; a request's level comes in its `_meta`. */
  setLoggingLevel(): void {}

  passes(): boolean {
    return true;
  }

  /** Never a member of the pool: what a request sees is its own view (RequestClient). */
  sees(): boolean {
    return false;
  }

  /** Outside its request a 2026-07-28 client has no stream: list changes reach it by subscriptions/listen. */
  notify(_notification: Notification): void {}

  /** Never a member of the pool: a request does not hear list changes. */
  listChanged(): void {}

  rounds<R>(ctx: ServerContext, subject: string, work: (ctx: ServerContext, client: RelayClient) => Promise<R>): Promise<R | InputRequiredResult> {
    return this.flows.round(ctx, subject, (flowCtx, channel) => work(flowCtx, new RequestClient(ctx, channel, viewOf(this.pool.options.access, ctx))));
  }
}

/** One 2026-07-28 request as the relay sees it: its own capabilities and log level, its own channel. */
class RequestClient implements RelayClient {
  readonly clientCapabilities: ClientCapabilities | undefined;
  private readonly level: LoggingLevel | undefined;

  constructor(
    ctx: ServerContext,
    private readonly channel: FlowChannel,
    private readonly view: CallerView,
  ) {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    this.clientCapabilities = requestCapabilities(ctx);
    const level = envelope?.[LOG_LEVEL_META_KEY];
    this.level = typeof level === 'string' ? (level as LoggingLevel) : undefined;
  }

  passes(level: LoggingLevel): boolean {
    return levelPasses(this.level, level);
  }

  sees(server: string): boolean {
    return this.view.sees(server);
  }

  notify(_notification: Notification): void {}

  askableCapabilities(): ClientCapabilities {
    const { elicitation, sampling, roots } = this.clientCapabilities ?? {};
    return { ...(elicitation ? { elicitation } : {}), ...(sampling ? { sampling } : {}), ...(roots ? { roots } : {}) };
  }

  suspended(): boolean {
    return this.channel.suspended;
  }

  ask(request: { method: string; params?: Record<string, unknown> }, options: { key?: string; signal: AbortSignal }): Promise<unknown> {
    const missing = missingCapability(request, this.clientCapabilities);
    if (missing) {
      // As a 2026-07-28 server answers: the request needs a capability its client did not declare.
      const error = new MissingRequiredClientCapabilityError({ requiredCapabilities: missing });
      this.channel.fail(error);
      return Promise.reject(error);
    }
    return this.channel.ask(request as InputRequest, options);
  }
}

/** The capability `request` needs that `declared` lacks, as the -32021 error names it; undefined when covered. */
function missingCapability(request: { method: string; params?: Record<string, unknown> }, declared: ClientCapabilities | undefined): ClientCapabilities | undefined {
  if (request.method === 'sampling/createMessage') return declared?.sampling ? undefined : { sampling: {} };
  if (request.method === 'roots/list') return declared?.roots ? undefined : { roots: {} };
  const elicitation = declared?.elicitation;
  const url = request.params?.mode === 'url';
  if (!elicitation) return { elicitation: url ? { url: {} } : { form: {} } };
  const form = elicitation.form !== undefined || Object.keys(elicitation).length === 0;
  if (url ? elicitation.url === undefined : !form) return { elicitation: url ? { url: {} } : { form: {} } };
  return undefined;
}
