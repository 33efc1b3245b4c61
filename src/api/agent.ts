// The `switchboard/agent` package entry: the agent core as a library. A ThreadManager starts and
// resumes threads; a Thread takes Ops and streams Events (Codex's protocol); createAgent wires one.


// --- threads ---
export { createAgent, builtinTools, ThreadManager, Thread, type AgentOptions } from '../core/index.js';
export type { ThreadManagerDeps, StartOptions, ThreadState, ThreadOverrides, ThreadSettings } from '../core/index.js';

// --- the protocol: Ops in, Events out ---
export { OpSchema, EventSchema } from '../protocol/index.js';
export type {
  Op,
  InputItem,
  Event,
  EventMsg,
  EventMsgOf,
  EventMsgType,
  ReviewDecision,
  AskForApproval,
  SandboxMode,
  SandboxPolicy,
  TokenUsage,
} from '../protocol/index.js';

// --- models ---
export { createOpenAIModelClient, ModelError } from '../core/index.js';
export type { ModelClient, ModelRequest, ResponseEvent, ResponseItem, ToolSpec, OpenAIModelClientOptions } from '../core/index.js';

// --- tools ---
export { createShellTool, createApplyPatchTool, createPlanTool, createPlatformSandbox, mcpToolSourceFrom } from '../core/index.js';
export type { Tool, ToolContext, ToolResult, ToolOutputItem, ApprovalRequest, JsonSchema, ShellToolOptions, Sandbox, McpToolSource } from '../core/index.js';
