// mcp-host: serving infrastructure that knows no product. The Streamable HTTP host (sessions, auth,
// Host/Origin checks, limits, event store), the stdio JSON-RPC transport, and the request guard.
// Products (agent-server, gateway) pass their texts and session factories in.
export { startHttpHost, closingAlso, HTTP_DEFAULTS, type HttpHost, type HttpHostOptions, type HttpServeOptions, type HttpSessionHandle } from './http/http-host.js';
export { MemoryEventStore } from './http/memory-event-store.js';
export { checkAuthConfig, MIN_TOKEN_LENGTH } from './http/http-security.js';
export { StdioFrameTransport } from './rpc/stdio-transport.js';
export { RequestGuard, requestKey, errorResponseFor, type GuardTexts } from './rpc/request-guard.js';
export { observedTransport, type ObservedTransportInfo } from './rpc/observed-transport.js';
export { createOps, startOpsListener, type Ops, type OpsGuard, type OpsOptions, type OpsSource, type OpsSnapshot, type UpstreamRow, type ClientRow, type CallRow, type ThreadRow } from './ops/index.js';
