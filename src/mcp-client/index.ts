export * from './launcher.js';
export { buildRemoteCommand, RemoteSpecError, type RemoteCommand } from './remote-command.js';
export { RemoteStdioTransport, type RemoteProcessChannel, type RemoteStdioTransportOptions } from './remote-stdio-transport.js';
export { createExecutorLauncher, type ExecServerEnvironment, type ExecutorLauncherOptions } from './executor-launcher.js';
export { createSshLauncher, type SshLauncherOptions } from './ssh-launcher.js';
export { buildRemoteScript, buildSshArgv, shellQuote, type SshEnvironment } from './ssh-command.js';
export { selectLauncher, UnknownEnvironmentError, LOCAL_ENVIRONMENT_ID, type LauncherSelection } from './select-launcher.js';

// mcp-client: one MCP server connection (stdio via launchers, Streamable HTTP, legacy HTTP+SSE), with
// deadlines, transient retries, OAuth hooks and session recovery. The layer's public face.
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
export { createLocalLauncher } from './local-launcher.js';
export type { LocalLauncherOptions } from './local-launcher.js';
export { createLocalServerEnv } from './stdio-env.js';
export { StdioStreamTransport } from './stdio-stream-transport.js';
export type { StdioStreams } from './stdio-stream-transport.js';
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
