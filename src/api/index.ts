// The `switchboard` package entry: config loading, the connection manager (many MCP servers as one
// catalog) and the single-server client, with their events and errors. A deliberate, small surface;
// everything else in src/ is internal and may change.

// --- config.toml ---
export { loadConfig, buildConfig, resolveHome, parseOverride, parseMcpServerConfig, ConfigError } from '../config/index.js';
export type {
  Config,
  ConfigInput,
  ConfigSettingsInput,
  McpServerInput,
  StdioServerInput,
  HttpServerInput,
  EnvironmentInput,
  ModelProviderInput,
  LoadConfigOptions,
  LoadedConfig,
  ConfigOverride,
  ConfigErrorLocation,
  McpServerConfig,
  ParsedServer,
  ModelProviderConfig,
  EnvironmentConfig,
} from '../config/index.js';

// --- many servers, one catalog ---
export { McpConnectionManager, createDefaultClientFactory, createConnectionManager, type ConnectionManagerOptions } from '../mcp/index.js';
export type {
  CallOptions,
  CallElicitation,
  CallElicitationHandler,
  CatalogEntry,
  ClientFactory,
  DefaultClientFactoryOptions,
  McpConnectionManagerDeps,
  McpConnectionManagerOptions,
  McpManagerEvent,
  RestartPolicyOptions,
  ServerStatus,
  StartupSummary,
  ToolSource,
  WaitMode,
} from '../mcp/index.js';
export type { McpStartupStatus, McpStartupFailure } from '../protocol/index.js';
export { ToolSearchIndex, type ToolSearchDoc, type ToolSearchHit, type ToolSearchOptions } from '../mcp/index.js';

// --- one server ---
export { McpClient, createMcpClient, McpClientError, isMcpClientError } from '../mcp-client/index.js';
export type {
  CallToolOptions,
  HandlerContext,
  McpClientDeps,
  McpClientHandlers,
  McpClientOptions,
  McpClientState,
  McpErrorCode,
  McpErrorDetails,
  ReadyInfo,
  RequestOptions,
  SessionRecoveredEvent,
} from '../mcp-client/index.js';
// The MCP SDK's types that appear in the signatures above, so callers need not know its package names.
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

// --- shared ---
export { SwitchboardError, nullLogger, stderrLogger, createLogger, sinkLogger, VERSION } from '../util/index.js';
export type { Logger, LogLevel, LogSink, LogWrite, LoggerOptions } from '../util/index.js';
