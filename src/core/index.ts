// The agent core's public face: threads and the turn loop, the model client, and the built-in tools
// with their approvals and sandbox.

// The Tool seam (the same line opens the tools block; keep one copy when both blocks meet).
export type { ApprovalRequest, JsonSchema, Tool, ToolContext, ToolOutputItem, ToolResult } from './tools/tool.js';

// ---- agent: model client, threads, turn loop, rollouts, MCP tool adapter (issue 6, agent half) ----
export * from './model/model-types.js';
export { ModelError, missingApiKeyError, type RetryBudget } from './model/model-error.js';
export { resolveProvider, type ResolvedProvider } from './model/provider.js';
export { OpenAIModelClient, createOpenAIModelClient, classifyModelError, type OpenAIModelClientOptions } from './model/openai-model-client.js';
export * from './mcp-tool-source.js';
export { createMcpTool, mcpResultForModel, type ElicitationHandler } from './tools/mcp-tools.js';
export { createMcpResourceTools } from './tools/mcp-resource-tools.js';
export { ToolRegistry, type TurnTools } from './tools/tool-registry.js';
export { Thread, type ThreadState } from './thread/thread.js';
export { ThreadManager, ORIGINATOR, type ThreadManagerDeps, type StartOptions } from './thread/thread-manager.js';
export {
  resolveThreadSettings,
  sandboxPolicyFor,
  DEFAULT_MODEL,
  DEFAULT_OSS_MODEL,
  DEFAULT_APPROVAL_POLICY,
  DEFAULT_SANDBOX_MODE,
  type ThreadSettings,
  type ThreadOverrides,
} from './thread/thread-settings.js';
export { DEFAULT_BASE_INSTRUCTIONS } from './thread/instructions.js';
export { newThreadId } from './thread/ids.js';
export { isPersistedEvent } from './rollout/persist-policy.js';
export { RolloutRecorder } from './rollout/rollout-recorder.js';
export { findRolloutFile, loadRollout, parseRollout, type LoadedRollout } from './rollout/rollout-reader.js';
export { rolloutPath, sessionsRoot, type SessionMeta, type TurnContext, type RolloutLine } from './rollout/rollout-schema.js';
// ---- end agent block ----
