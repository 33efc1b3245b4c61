// Small shared pieces used by every layer.
export * from './errors.js';
export { McpClientError, isMcpClientError, type McpErrorCode, type McpErrorDetails } from './mcp-error.js';
export * from './logger.js';
export * from './file-logger.js';
export { DEFAULT_LOG_ROTATION, type LogRotation } from './log-file.js';
export * from './abort.js';
export * from './async-queue.js';
export { Fifo } from './fifo.js';
export * from './atomic-write.js';
export * from './file-lock.js';
export * from './listen/index.js';
export * from './json-rpc.js';
export { isPlainJsonRpcMessage } from './json-rpc-shape.js';
export * from './version.js';
export { importOptional, isMissingPackage } from './optional-package.js';
export { editDistance, closestName } from './edit-distance.js';
export * from './line-framer.js';
export * from './process-group.js';
