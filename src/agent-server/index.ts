// agent-server: the agent as a Codex-compatible MCP server (`codex` / `codex-reply` tools,
// `codex/event` notifications, approvals by elicitation): a product whose handlers the host
// (mcp-host) serves over stdio or Streamable HTTP.
export { codexProduct, type CodexServerOptions } from './codex-product.js';
export { TurnLimiter } from './call-limits.js';
export { IdleThreads, DEFAULT_THREAD_IDLE_MS } from './idle-threads.js';
export { serverConfig, type ServerConfig, type SessionDefaults } from './call-config.js';
export { callCeilings, CallCeilings, HARMLESS_CONFIG_KEYS, type Ceiling } from './call-ceilings.js';
export type { CodexAgent } from './tool-call.js';
export { codexTools, CODEX_TOOL, CODEX_REPLY_TOOL } from './tool-definitions.js';
export { shutdownThreads } from './shutdown.js';
export { createCodexAgent, DEFAULT_MAX_TURNS, type CodexAgentOptions } from './create-agent.js';
