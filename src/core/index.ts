// The agent core's public face: threads and the turn loop, the model client, and the built-in tools
// with their approvals and sandbox.

// --- tools, approvals, sandbox, exec (built-in tools half) ---
export type { ApprovalRequest, JsonSchema, Tool, ToolContext, ToolOutputItem, ToolResult } from './tools/tool.js';
export { createShellTool, DEFAULT_SHELL_TIMEOUT_MS, type ShellToolOptions } from './tools/shell.js';
export { createApplyPatchTool } from './tools/apply-patch/apply-patch-tool.js';
export { runPatch } from './tools/apply-patch/run-patch.js';
export { createPlanTool } from './tools/plan.js';
export { assessPatch, type PatchAssessment } from './approvals/patch-policy.js';
export { EXEC_REJECTED_BY_USER, PATCH_REJECTED_BY_USER } from './approvals/messages.js';
export {
  SANDBOX_UNAVAILABLE,
  SandboxUnavailableError,
  type Sandbox,
  type SandboxKind,
  type SandboxWrapOptions,
  type WritableRoot,
} from './sandbox/sandbox.js';
export { BwrapSandbox } from './sandbox/bwrap.js';
export { SeatbeltSandbox } from './sandbox/seatbelt.js';
export { createPlatformSandbox, NoSandbox } from './sandbox/platform.js';
export type { OutputStream } from './exec/run-command.js';
export { shellEnvironment } from './exec/shell-env.js';
// --- end tools ---


// ---- agent: model client, threads, turn loop, rollouts, MCP tool adapter (issue 6, agent half) ----
export * from './model/model-types.js';
export { ModelError, missingApiKeyError, type RetryBudget } from './model/model-error.js';
export { resolveProvider, type ResolvedProvider } from './model/provider.js';
export { OpenAIModelClient, createOpenAIModelClient, classifyModelError, type OpenAIModelClientOptions } from './model/openai-model-client.js';
export * from './mcp-tool-source.js';
export { mcpToolSourceFrom } from './mcp-manager-source.js';
export { createMcpTool, type ElicitationHandler } from './tools/mcp-tools.js';
export { createMcpResourceTools } from './tools/mcp-resource-tools.js';
export { ToolRegistry, type TurnTools } from './tools/tool-registry.js';
export { Thread, type ThreadState } from './thread/thread.js';
export { ThreadManager, ORIGINATOR, type ThreadManagerDeps, type StartOptions } from './thread/thread-manager.js';
export { createAgent, builtinTools, type AgentOptions } from './create-agent.js';
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
export { isPersistedEvent } from './rollout/persist-policy.js';
export { RolloutRecorder } from './rollout/rollout-recorder.js';
export { findRolloutFile, loadStoredRollout, parseRollout, type LoadedRollout } from './rollout/rollout-reader.js';
export { rolloutPath, sessionsRoot, type SessionMeta, type TurnContext, type RolloutLine } from './rollout/rollout-schema.js';
// ---- end agent block ----
