// mcp-host: serving infrastructure that knows no product. A product (the gateway, the agent server)
// gives a handler table; the serving entry serves it on stdio or Streamable HTTP in both revisions,
// with the caller's view, rounds, one task table, audit, spans, limits and shutdown applied once.
// This face is what products need; the composition root also wires the [server_auth] side
// (access/index.ts), the HTTP listener's settings (http/index.ts) and operations (ops/index.ts).
export { serveHttp, serveStdio, startServing, type Connection, type ServeOptions, type Serving } from './serve/serve.js';
export type { Handler, Notification, Product, ProductTasks, Req, Session } from './serve/product.js';
export { isTerminal, type TaskContext, type TaskState, type TaskWork } from './serve/task-work.js';
export type { ScopedNotifier } from './http/scoped-events.js';
export type { HttpHost, HttpServeOptions } from './http/http-host-types.js';
export { upstreamCaller, type Caller } from './access/caller.js';
export { ruleApplies, type CallerView } from './access/access-rules.js';
export type { AuditDescriber } from './access/audit-trail.js';
