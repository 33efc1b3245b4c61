// The agent as an MCP server: Codex's `codex` / `codex-reply` tools over stdio or Streamable HTTP, and
// the reusable HTTP hosting (auth, Host/Origin checks, sessions, limits) other servers build on.
export { CodexMcpServer, PROTOCOL_VERSIONS, type CodexServerOptions } from './codex/codex-server.js';
export { ThreadLeases, TurnLimiter } from './codex/call-limits.js';
export { IdleThreads, DEFAULT_THREAD_IDLE_MS } from './codex/idle-threads.js';
export { serverConfig, type ServerConfig } from './codex/call-config.js';
export type { CodexAgent } from './codex/tool-call.js';
export { codexTools, CODEX_TOOL, CODEX_REPLY_TOOL } from './codex/tool-definitions.js';
export { StdioFrameTransport } from './rpc/stdio-transport.js';
export { RequestGuard } from './rpc/request-guard.js';
export { createCodexAgent, serveCodexHttp, serveCodexStdio, shutdownThreads, DEFAULT_MAX_TURNS, type HttpServeOptions, type StdioServeOptions, type StdioServeResult, type CodexAgentOptions } from './serve-codex.js';
export { startHttpHost, HTTP_DEFAULTS, type HttpHost, type HttpHostOptions, type HttpSessionHandle } from './http/http-host.js';
export { MemoryEventStore } from './http/memory-event-store.js';
export { parseListenAddress, isLoopbackHost, checkAuthConfig, bearerMatches, allowedHostnames, MIN_TOKEN_LENGTH, type ListenAddress } from './http/http-security.js';
export { GatewaySession, GATEWAY_PROTOCOL_VERSIONS, type GatewayDeps, type GatewayOptions } from './gateway/gateway-session.js';
export type { GatewayMode } from './gateway/catalog-view.js';
export type { GatewayUpstreamSetup } from './gateway/upstreams.js';
export { SERVER_META_KEY } from './gateway/resource-routes.js';
export { serveGatewayHttp, serveGatewayStdio, type GatewayStdioIO } from './gateway/serve-gateway.js';
