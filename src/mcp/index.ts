// McpConnectionManager: many servers -> one catalog (naming, filters, metadata policy, snapshots,
// startup events, routing, resources and prompts). The layer's public face.
export { McpConnectionManager } from './connection-manager.js';
export type { CallOptions, McpConnectionManagerDeps, McpConnectionManagerOptions, McpManagerEvent, OperationOptions, ReadOptions, ServerStatus, ServersReloaded, StartupSummary, WaitMode } from './connection-manager.js';
export { DEFAULT_DRAIN_TIMEOUT_MS } from './manager-reload.js';
export { diffServers, IN_PLACE_SETTINGS, type ServersDiff } from './server-diff.js';
export type { TaskCallParams, ToolTasks } from './manager-operations.js';
export type { UpstreamAccess } from './upstream-access.js';
export type { UpstreamCaller } from '../mcp-client/index.js';
export { withUpstreamSignIn, SIGN_IN_WAIT_MS, type SignInAnswer, type SignInAsk, type SignInOptions } from './upstream-sign-in.js';
export { canonicalUri } from './resource-uri.js';
export { createDefaultClientFactory, type ClientFactory, type DefaultClientFactoryOptions } from './client-factory.js';
export { createConnectionManager, type ConnectionManagerOptions } from './create-manager.js';
export type { ServerPhase } from './server-status.js';
export type { CatalogEntry, ToolSource } from './catalog.js';
export type { CallElicitation, CallElicitationHandler } from './elicitation-router.js';
export { SnapshotStore, SNAPSHOT_SCHEMA_VERSION } from './snapshot-store.js';
export { TrustedServers, CONNECTOR_META_KEYS } from './tool-metadata.js';
export { sanitizeNamePart, nameMayBelongTo, DEFAULT_MAX_TOOL_NAME_BYTES } from './tool-naming.js';
export { startupErrorDisplay, notLoggedInText } from './startup-error.js';
export { DEFAULT_RESTART_POLICY, type RestartPolicyOptions } from './restart-policy.js';
export * from './tool-search/index.js';
