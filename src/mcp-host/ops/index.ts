// Operations: health, readiness, Prometheus metrics and the live status page of an HTTP endpoint,
// and the server span of each request served (for a process serving MCP by its own hand).
export { createOps, type Ops, type OpsGuard, type OpsOptions } from './ops.js';
export { startOpsListener } from './ops-listener.js';
export { requiredUpstreamsUp, upstreamUp } from './upstream-up.js';
export type { CallRow, ClientRow, ConfigRow, ConfigSource, OpsSnapshot, OpsSource, ThreadRow, UpstreamRow } from './ops-types.js';
export { observedTransport } from '../rpc/observed-transport.js';
