// agent-server: the agent as a Codex-compatible MCP server (`codex` / `codex-reply` tools,
// `codex/event` notifications, approvals by elicitation) over stdio or Streamable HTTP.
export { CodexMcpServer, PROTOCOL_VERSIONS, type CodexServerOptions } from './codex-server.js';
export { TurnLimiter } from './call-limits.js';
export { IdleThreads, DEFAULT_THREAD_IDLE_MS } from './idle-threads.js';
export { serverConfig, type ServerConfig } from './call-config.js';
export type { CodexAgent } from './tool-call.js';
export { codexTools, CODEX_TOOL, CODEX_REPLY_TOOL } from './tool-definitions.js';
export { createCodexAgent, serveCodexHttp, serveCodexStdio, shutdownThreads, DEFAULT_MAX_TURNS, type StdioServeOptions, type StdioServeResult, type CodexAgentOptions } from './serve-codex.js';
