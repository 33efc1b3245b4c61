// Operations: health, readiness, Prometheus metrics and the live status page of an HTTP endpoint.
export { createOps, type Ops, type OpsGuard, type OpsOptions } from './ops.js';
export { startOpsListener } from './ops-listener.js';
export type { CallRow, ClientRow, OpsSnapshot, OpsSource, ThreadRow, UpstreamRow } from './ops-types.js';
