// mcp-host: serving infrastructure that knows no product. The Streamable HTTP host (sessions, auth,
// Host/Origin checks, limits, event store), the stdio JSON-RPC transport, and the request guard.
// The 2026-07-28 leg (per-request servers beside the sessions) and multi-round-trip input flows.
// Products (agent-server, gateway) pass their texts and session factories in.
export { startHttpHost, closingAlso, HTTP_DEFAULTS, type HttpHost, type HttpHostOptions, type HttpServeOptions, type HttpSessionHandle } from './http/http-host.js';
export { MemoryEventStore } from './http/memory-event-store.js';
export type { SharedSessionRecord, SharedSessions } from './http/shared-sessions.js';
export { checkAuthConfig, MIN_TOKEN_LENGTH, type AuthOptionNames } from './http/http-security.js';
export { StdioFrameTransport } from './rpc/stdio-transport.js';
export { RequestGuard, requestKey, errorResponseFor, type GuardTexts } from './rpc/request-guard.js';
export { ResourceAuth, type ResourceAuthOptions } from './http/resource-auth.js';
export { STATIC_CALLER, callerOf, type Caller } from './access/caller.js';
export { AccessPolicy, UNRESTRICTED, ruleApplies, type AccessRule, type CallerView } from './access/access-rules.js';
export { CallerLimits, MemoryLimitStore, type CallerLimitStore, type CallerLimitSettings } from './access/caller-limits.js';
export { AuditedTransport, auditedServer, auditFilePath, fileAuditSink, type AuditDescriber, type AuditRecord, type AuditSink } from './access/audit-trail.js';
export { readAuditTail, type AuditTailOptions } from './access/audit-reader.js';
export { TaskServer, createdTaskResult } from './rpc/task-server.js';
export { observedTransport, requestSpanOf, type ObservedTransportInfo } from './rpc/observed-transport.js';
export { listenTap, type OnListen } from './rpc/listen-tap.js';
export { createOps, startOpsListener, type Ops, type OpsGuard, type OpsOptions, type OpsSource, type OpsSnapshot, type UpstreamRow, type ClientRow, type CallRow, type ThreadRow } from './ops/index.js';
export { createModernLeg, type ModernLeg, type ModernLegOptions } from './http/modern-leg.js';
export { serveHttp, serveStdio, startServing, type Connection, type ServeOptions, type Serving, type StdioIO, type StdioResult } from './serve/serve.js';
export type { Era, Handler, Notification, Product, ProductTasks, Req, Session } from './serve/product.js';
export { isTerminal, type TaskContext, type TaskState, type TaskWork } from './serve/task-work.js';
export type { ScopedNotifier } from './http/scoped-events.js';
export { InputFlows, DEFAULT_MAX_WAITING, type FlowChannel, type InputFlowsOptions } from './flows/input-flows.js';
export { randomRequestStateKey, RequestStateSealer, MAX_REQUEST_STATE_CHARS, DEFAULT_REQUEST_STATE_TTL_MS, type RequestStateKey } from './flows/request-state.js';
export { TaskIds, TASK_METHODS, retryHolders } from './flows/task-ids.js';
export { TaskTable, MAX_KEEP_MS, MAX_TASKS, MAX_TASKS_PER_CALLER, type TableTask, type TaskTableOptions } from './flows/task-table.js';
export {
  TaskIdParams,
  UpdateParams,
  MAX_OPEN_QUESTIONS,
  declaresTasks,
  extensionRequired,
  requestCapabilities,
  taskOwner,
  taskCaller,
  taskAnswers,
  taskNotFound,
  TaskQuestions,
  type InputQuestion,
} from './flows/tasks-extension.js';
