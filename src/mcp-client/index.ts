// mcp-client: one MCP server connection (stdio via launchers, Streamable HTTP, legacy HTTP+SSE), with
// deadlines, transient retries, OAuth hooks and session recovery. The layer's public face.
export * from './launchers/index.js';
export { createMcpClient, McpClient } from './mcp-client.js';
export type { CallToolOptions } from './mcp-client.js';
export type {
  HandlerContext,
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
export { recipeFromConfig } from './recipe.js';
export type { TransportRecipe, StdioRecipe, HttpRecipe } from './recipe.js';
export * from './defaults.js';
// SDK types that appear in McpClient's signatures, so callers need not know the SDK's package names.
export type {
  CallToolResult,
  CompleteResult,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  Implementation,
  PriorDiscovery,
  Progress,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  Root,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';


// ---- OAuth (oauth/ — discovery, login/logout, token store, refresh, auth status) ----
export * from './oauth/index.js';
