// The public shapes of McpClient: dependencies, options, handlers injected at construction, states.
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  FetchLike,
  Implementation,
  LoggingMessageNotification,
  AuthProvider,
  ClientCapabilities,
  OAuthClientProvider,
  PriorDiscovery,
  Root,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import type { Logger } from '../util/index.js';
import type { Telemetry, TraceContext } from '../util/telemetry/index.js';
import type { McpClientError } from './errors.js';
import type { StdioLauncher } from './launchers/index.js';
import type { TaskStatusParams } from './task-requests.js';

/** Passed to a handler answering a server's request. */
export interface HandlerContext {
  serverName: string;
  signal: AbortSignal;
  /** The JSON-RPC id of the server's request. */
  requestId: string | number;
  /** A request embedded in a 2026-07-28 input-required result: the server's key for it. */
  inputKey?: string;
}

/** Everything the server can push to us. Given once, at construction. */
export interface McpClientHandlers {
  /** Form and URL elicitation. Without a handler every request is declined. */
  elicitation?: (request: ElicitRequest['params'], ctx: HandlerContext) => Promise<ElicitResult>;
  /** sampling/createMessage; the capability is advertised only when this is given. */
  sampling?: (request: CreateMessageRequest['params'], ctx: HandlerContext) => Promise<CreateMessageResult>;
  /**
   * roots/list answered by the host each time (a gateway asks its own client), replacing the fixed
   * `roots` option; the roots capability is then advertised with `listChanged`.
   */
  listRoots?: (ctx: HandlerContext) => Promise<Root[]>;
  /** notifications/message; without a handler, messages go to the logger. */
  onLog?: (params: LoggingMessageNotification['params']) => void;
  /** notifications/elicitation/complete: the URL-mode elicitation with this id has finished. */
  onElicitationComplete?: (params: { elicitationId: string }) => void;
  onToolsListChanged?: () => void;
  onResourcesListChanged?: () => void;
  onPromptsListChanged?: () => void;
  onResourceUpdated?: (uri: string) => void;
  /** notifications/tasks/status (2025-11-25 tasks): a task of this server changed status. */
  onTaskStatus?: (params: TaskStatusParams) => void;
  /** After a session recovery: the re-fetched tools, and whether they differ from the last list. */
  onSessionRecovered?: (event: SessionRecoveredEvent) => void;
  /** Every lifecycle change, including a connection that fails after being ready. */
  onStateChange?: (state: McpClientState) => void;
}

/**
 * What answers the input requests of one request (a 2026-07-28 server's input-required results), in
 * place of the connection's handlers: a gateway passes the calling client's, so each question goes to
 * the client whose call asked it however many calls share the connection.
 */
export type InputHandlers = Pick<McpClientHandlers, 'elicitation' | 'sampling' | 'listRoots'>;

/** Reported after the client reopened a session the server had forgotten. */
export interface SessionRecoveredEvent {
  serverName: string;
  /** The connection generation now in use (1 is the first connection). */
  generation: number;
  /** The tool list fetched after recovery; undefined if it could not be fetched. */
  tools: Tool[] | undefined;
  /** True when the tools differ from the last list this client returned. */
  toolsChanged: boolean;
}

/** What an McpClient uses: where to log, where stdio servers run, variables, OAuth and handlers. */
export interface McpClientDeps {
  logger: Logger;
  /** Where stdio servers run; the local launcher by default. */
  launcher?: StdioLauncher;
  /** The environment bearer_token_env_var / env_http_headers read from; process.env by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * OAuth for HTTP servers: the SDK transport refreshes through it on a 401 (and steps up scopes on a
   * 403 with an OAuthClientProvider), then retries once. Not consulted when the server has an
   * explicit Authorization (bearer_token_env_var or an Authorization header).
   */
  authProviderFor?: (config: McpServerConfig) => OAuthClientProvider | AuthProvider | undefined;
  /** fetch for HTTP transports; the global one by default. */
  fetch?: FetchLike;
  handlers?: McpClientHandlers;
  /** A client span per request, and the trace context passed on (`_meta`, HTTP headers). Default: none. */
  telemetry?: Telemetry;
}

/** How an McpClient presents itself and times its operations. */
export interface McpClientOptions {
  clientInfo?: Implementation;
  /** The workspace roots answered to roots/list; the roots capability is advertised only with them. */
  roots?: Root[];
  /** Overrides config.startup_timeout_sec. */
  startupTimeoutMs?: number;
  /** Overrides config.tool_timeout_sec; the default deadline of every request after initialize. */
  toolTimeoutMs?: number;
  /** Progress can extend a request up to this total. */
  maxTotalTimeoutMs?: number;
  /**
   * `auto` (default) first probes with the 2026-07-28 `server/discover` and falls back to
   * `initialize` for 2025-era servers; `legacy` sends `initialize` only, like every 2025-era client.
   * Legacy HTTP+SSE servers are always spoken to with `initialize`.
   */
  versionNegotiation?: 'legacy' | 'auto';
  /**
   * The era verdict recorded from an earlier connection to this server (`ReadyInfo.discovery`):
   * connecting adopts it instead of probing, so a 2026-07-28 server costs no round trip and a
   * 2025 one no probe. Only for the first connection; later generations reuse what they learn.
   */
  prior?: PriorDiscovery;
  /** Advertise URL-mode elicitation as well as form mode (default true). */
  urlElicitation?: boolean;
  /**
   * The exact elicitation capability to advertise, replacing the default (form with applyDefaults,
   * plus url per `urlElicitation`); null advertises none, so the server never elicits. A gateway
   * passes on what its own client declared.
   */
  elicitationCapability?: ClientCapabilities['elicitation'] | null;
  /** The sampling capability advertised when a sampling handler is given (default `{}`). */
  samplingCapability?: ClientCapabilities['sampling'];
  /** Delays before re-opening a dropped 2026-07-28 `subscriptions/listen` stream; given up after the last. */
  listenRetryDelaysMs?: readonly number[];
  /** Transient retry delays (default 250 ms, 1000 ms). */
  retryDelaysMs?: readonly number[];
}

/** Cancellation and deadline of one request. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the tool timeout for this request. */
  timeoutMs?: number;
  /** The trace context this request continues (W3C `traceparent` / `tracestate`); without it, the current span's. */
  traceParent?: TraceContext;
}

/** A request a 2026-07-28 server may answer with input-required results (tools/call, prompts/get, resources/read). */
export interface InputRequestOptions extends RequestOptions {
  /** This request's own answerers (see {@link InputHandlers}); without them, the connection's handlers answer. */
  inputs?: InputHandlers;
}

/** What the server said at initialize, and which connection generation is in use. */
export interface ReadyInfo {
  serverInfo: Implementation | undefined;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  protocolVersion: string | undefined;
  /** What to pass as `prior` next time: the server's discover result, or that it is 2025-era. */
  discovery: PriorDiscovery | undefined;
  generation: number;
}

/** An McpClient's lifecycle. */
export type McpClientState =
  | { kind: 'connecting' }
  | ({ kind: 'ready' } & ReadyInfo)
  | { kind: 'failed'; error: McpClientError }
  | { kind: 'closed' };
