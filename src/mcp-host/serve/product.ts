// What a product (the gateway, the agent server) gives the serving entry: its name, capabilities and
// texts, a handler per method, and where it has them its tasks and its per-session state. Everything
// else is the host's, once for every transport and revision: which revision a request speaks, the
// 2026-07-28 input-required rounds, the task table, audit, spans, per-caller limits and shutdown.
import type { CallToolRequestParams, CallToolResult, ClientCapabilities, InputRequest, RequestId, ServerCapabilities } from '@modelcontextprotocol/server';
import type { ZodType } from 'zod';
import type { TraceContext } from '../../util/telemetry/index.js';
import type { CallerView } from '../access/access-rules.js';
import type { Caller } from '../access/caller.js';
import type { AuditDescriber } from '../access/audit-trail.js';
import type { GuardTexts } from '../rpc/request-guard.js';
import type { EventScope, ScopedNotifier } from '../http/scoped-events.js';
import type { OpsSource } from '../ops/index.js';
import type { TaskContext, TaskWork } from './task-work.js';

export type Era = 'legacy' | 'modern';

/** A notification a request sends on its own stream (progress, log messages, `codex/event`). */
export interface Notification {
  method: string;
  params?: Record<string, unknown>;
}

/** One 2025 connection (a stdio pipe or an HTTP session), as products see it. */
export interface Session {
  readonly id: string;
  /** The view of the caller that opened it (fixed at initialize; over stdio the local user's). */
  readonly view: CallerView;
  /** The caller that opened it (over HTTP); undefined over stdio. */
  readonly caller: Caller | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Sends on the session's own stream (the GET stream over HTTP), outside any request. */
  notify(notification: Notification): void;
  /** A server-to-client request outside any request (a 2025 task's question). */
  request(request: InputRequest & { params: Record<string, unknown> }, signal: AbortSignal): Promise<unknown>;
  /** Runs once the session has closed. */
  onClose(listener: () => void): void;
}

/** One request as a handler sees it, whatever revision and transport it came by. */
export interface Req {
  readonly era: Era;
  readonly id: RequestId;
  readonly method: string;
  readonly caller: Caller | undefined;
  readonly view: CallerView;
  /** Aborted when the client cancels the request or goes away (across rounds, in 2026-07-28). */
  readonly signal: AbortSignal;
  /** The request's `_meta` (its progressToken, its trace context), as the current round carries it. */
  readonly meta: Record<string, unknown> | undefined;
  /** What the requesting client can be asked: a 2025 session's capabilities, a 2026-07-28 request's own. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The 2026-07-28 request's `_meta` envelope (its log level), undefined in 2025. */
  readonly envelope: Record<string, unknown> | undefined;
  /** The answers a 2026-07-28 request carries (`inputResponses`, which the SDK lifts off its params). */
  readonly inputResponses: Record<string, unknown> | undefined;
  /** The 2025 session the request came in; undefined for a 2026-07-28 request. */
  readonly session: Session | undefined;
  /** The trace context of this request's server span, when tracing. */
  readonly traceContext: TraceContext | undefined;
  /** Sends on the request's own stream; the response goes out only after it. */
  notify(notification: Notification): Promise<void>;
  /**
   * Asks the requesting client (elicitation, sampling, roots list): a server-to-client request in
   * 2025, an input-required round in 2026-07-28 (handlers marked `asks` only). A client that did not
   * declare the capability is refused as its revision says. `raw`: the answer as it came, unvalidated.
   */
  ask(request: InputRequest, options?: { key?: string; signal?: AbortSignal; raw?: boolean }): Promise<unknown>;
  /** A 2026-07-28 request between rounds: its questions went out and it waits for its client's retry. */
  readonly suspended: boolean;
}

export interface Handler {
  /** The params schema, for a method the SDK does not type (a product's own method). */
  params?: ZodType;
  /** It may ask its client for input: a 2026-07-28 request runs it over rounds. */
  asks?: boolean;
  /** Served in this revision only. */
  era?: Era;
  handle(params: Record<string, unknown>, req: Req): unknown;
}

/** Tasks of a product's tools/call, kept in the host's one table (2025-11-25 tasks, the 2026-07-28 tasks extension). */
export interface ProductTasks {
  /** The tool a 2026-07-28 tools/call names runs only as a task: a request without the extension is refused (-32021). */
  runsOnlyAsTask?(params: CallToolRequestParams, req: Req): Promise<boolean>;
  /**
   * A tools/call whose client asked for a task (`params.task` in 2025, the extension declared in
   * 2026-07-28): the task's work, the call's result when it ran at once, or undefined to run it as
   * an ordinary call. `task` tells the work its id and lets it report and ask.
   */
  start(params: CallToolRequestParams, req: Req, task: TaskContext): Promise<TaskWork | CallToolResult | undefined>;
}

export interface Product {
  readonly info: { name: string; title: string; version: string };
  /** How the log names it ("gateway", "mcp-server") and what it adds about itself. */
  readonly logAs?: { name: string; fields?: Record<string, unknown> };
  /** Capabilities in `era` besides tasks (the host declares those when the product has tasks). */
  capabilities(era: Era): ServerCapabilities;
  /** The 2025 revisions `initialize` accepts, newest first (2026-07-28 is served as well). */
  readonly legacyVersions: readonly string[];
  /** A handler per method, for both revisions unless one says otherwise. */
  readonly handlers: Readonly<Record<string, Handler>>;
  /** Notifications a client sends (besides cancellation, which the host handles). */
  readonly notifications?: Readonly<Record<string, (params: Record<string, unknown>, req: { view: CallerView; session: Session | undefined }) => void | Promise<void>>>;
  readonly tasks?: ProductTasks;
  /** The instructions for a caller with `view` (initialize, server/discover). */
  instructions?(view: CallerView): Promise<string | undefined>;
  /** `serverInfo` extras a 2025 initialize answers with (Codex's user_agent). */
  serverInfoFor?(clientInfo: { name: string; version: string }): Record<string, unknown>;
  /** A 2025 session opened (after initialize): what the product keeps for it ends with it. */
  opened?(session: Session): void;
  /** Codex's texts for refusals before the SDK (a method not served, a reused request id); default the SDK's own. */
  readonly texts?: GuardTexts;
  /** The upstream a request goes to, for the audit trail. */
  readonly describe?: AuditDescriber;
  /** Which change events the 2026-07-28 listen streams of `caller` (seen through `view`) hear. */
  scopeOf?(view: CallerView, caller: Caller | undefined): EventScope;
  /** A 2026-07-28 listen stream of `caller` (seen through `view`) asking updates of `uris` opened; `ended` aborts when it closes. */
  listening?(uris: string[], view: CallerView, ended: AbortSignal, caller: Caller | undefined): void;
  /** A cancelled request still answers (Codex's "Turn aborted."): its handler's signal aborts, its response goes out. */
  readonly answersCancelled?: boolean;
  /** Whether a request's server span is the current span while it is handled (default true); false for handlers that look it up by id. */
  readonly currentSpan?: boolean;
  /** What /readyz, /metrics and the status page show of it (its upstreams, its readiness). */
  readonly ops?: OpsSource;
  /** Publishes the product's changes to 2026-07-28 listen streams until the returned function is called. */
  watch?(notifier: ScopedNotifier): () => void;
  /** The serving ended (stdin closed, the listener closed): the product's own shutdown. */
  close?(): Promise<void>;
}

export type { CallToolResult };
