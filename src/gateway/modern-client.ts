// One 2026-07-28 request to the gateway: a fresh SDK server per request (no session), with the same
// handlers a 2025 session has, on the shared pool. What an upstream asks while the request runs
// becomes an input-required result; the client's retry resumes the waiting upstream request.
import {
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  Server,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  type LoggingLevel,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { FlowChannel, InputFlows } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import type { CatalogView, GatewayMode } from './catalog-view.js';
import { MODERN_PROTOCOL_VERSION, type GatewayClient } from './gateway-client.js';
import { registerGatewayHandlers } from './gateway-handlers.js';
import { levelPasses, type GatewayPool } from './gateway-pool.js';
import type { Notification } from './relay.js';
import type { Upstreams } from './upstreams.js';


export class ModernGatewayClient implements GatewayClient {
  readonly server: Server;
  readonly stableToolOrder = true;
  /** Set while this request's work runs over rounds: where its questions go. */
  private channel: FlowChannel | undefined;
  private level: LoggingLevel | undefined;

  constructor(
    readonly pool: GatewayPool,
    private readonly flows: InputFlows,
    instructions: string | undefined,
  ) {
    const { options } = pool;
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
        supportedProtocolVersions: [MODERN_PROTOCOL_VERSION],
        ...(instructions ? { instructions } : {}),
      },
    );
    registerGatewayHandlers(this);
    this.server.onerror = (err) => pool.logger.debug('gateway request error', { error: errorMessage(err) });
  }

  get logger(): Logger {
    return this.pool.logger;
  }

  get mode(): GatewayMode {
    return this.pool.mode;
  }

  /** This request's capabilities, from its `_meta` envelope (the SDK fills them in per request). */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.server.getClientCapabilities();
  }

  upstreams(): Upstreams {
    return this.pool.upstreams();
  }

  get catalog(): CatalogView {
    return this.upstreams().catalog;
  }

  get loggingLevel(): LoggingLevel | undefined {
    return this.level;
  }

  setLoggingLevel(level: LoggingLevel): void {
    this.level = level;
  }

  passes(level: LoggingLevel): boolean {
    return levelPasses(this.level, level);
  }

  /** Outside its request a 2026-07-28 client has no stream: list changes reach it by subscriptions/listen. */
  notify(_notification: Notification): void {}

  /** Never a member of the pool: a request does not hear list changes. */
  listChanged(): void {}

  rounds<R>(ctx: ServerContext, work: (ctx: ServerContext) => Promise<R>): Promise<R | InputRequiredResult> {
    const level = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY];
    if (typeof level === 'string') this.level = level as LoggingLevel;
    return this.flows.round(ctx, (flowCtx, channel) => {
      this.channel = channel;
      return work(flowCtx);
    });
  }

  askableCapabilities(): ClientCapabilities {
    const { elicitation, sampling, roots } = this.clientCapabilities ?? {};
    return { ...(elicitation ? { elicitation } : {}), ...(sampling ? { sampling } : {}), ...(roots ? { roots } : {}) };
  }

  suspended(): boolean {
    return this.channel?.suspended === true;
  }

  ask(request: { method: string; params?: Record<string, unknown> }, options: { key?: string; signal: AbortSignal }): Promise<unknown> {
    const channel = this.channel;
    if (!channel) return Promise.reject(new Error('no request of this client is waiting for input'));
    const missing = missingCapability(request, this.clientCapabilities);
    if (missing) {
      // As a 2026-07-28 server answers: the request needs a capability its client did not declare.
      const error = new MissingRequiredClientCapabilityError({ requiredCapabilities: missing });
      channel.fail(error);
      return Promise.reject(error);
    }
    return channel.ask(request as InputRequest, options);
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
