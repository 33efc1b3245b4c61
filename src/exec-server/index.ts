// Remote process execution: the exec-server service and its client (used by the executor launcher).
export * from './wire.js';
export * from './methods.js';
export { bearerMatches, parseListen, isLoopbackHost, type ListenAddress } from './auth.js';
export { startExecServer, checkAuthConfig, type ExecServer, type ExecServerOptions } from './exec-server.js';
export { ExecutorClient, ExecRpcError, type ExecutorConnectOptions, type StartOptions, type ConnectionLost } from './executor-client.js';
export { describeExit, type ExecExit, type ExecProcess, type OutputChunk } from './exec-process.js';
export { signalGroup, terminateGroup } from './process-group.js';
