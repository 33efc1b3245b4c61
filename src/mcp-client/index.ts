// mcp-client: one MCP server connection (stdio via launchers, Streamable HTTP, legacy HTTP+SSE), with
// deadlines, transient retries, OAuth hooks and session recovery. The layer's public face.
export * from './launchers/index.js';
export { createMcpClient, McpClient } from './mcp-client.js';
export type { CallToolOptions } from './mcp-client.js';
export type { ListCacheHint } from './pagination.js';
export type {
  HandlerContext,
  InputHandlers,
  InputRequestOptions,
  McpClientDeps,
  McpClientHandlers,
  McpClientOptions,
  McpClientState,
  ReadyInfo,
  RequestOptions,
  SessionRecoveredEvent,
} from './types.js';
export { McpClientError, isMcpClientError, isTransient, operationTimeoutMessage, handshakeTimeoutMessage } from './errors.js';
export type { McpErrorCode, McpErrorDetails } from './errors.js';
export { type PassThroughResult, type TaskMethod, type TaskStatusParams } from './task-requests.js';
export { recipeFromConfig } from './recipe.js';
export type { TransportRecipe, StdioRecipe, HttpRecipe } from './recipe.js';
export * from './defaults.js';
export type { CallerAuth, UpstreamCaller, UpstreamIdentities, UpstreamIdentityKind } from './caller-identity.js';
// The SDK's discovery result the manager records and hands back on a warm start.
export type { PriorDiscovery } from '@modelcontextprotocol/client';

// OAuth (discovery, login/logout, token store, refresh, auth status) has its own public face,
// oauth/index.ts, which this one does not re-export: connecting to a stdio server never loads it.
