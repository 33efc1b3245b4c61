// The agent core's public face: threads and the turn loop, the model client, and the built-in tools
// with their approvals and sandbox.

// --- tools, approvals, sandbox, exec (built-in tools half) ---
export type { ApprovalRequest, JsonSchema, Tool, ToolContext, ToolOutputItem, ToolResult } from './tools/tool.js';
export { createShellTool, DEFAULT_SHELL_TIMEOUT_MS, type ShellToolOptions } from './tools/shell.js';
export { createApplyPatchTool } from './tools/apply-patch/apply-patch-tool.js';
export { runPatch } from './tools/apply-patch/run-patch.js';
export { parsePatch, PatchParseError, type Hunk, type UpdateChunk } from './tools/apply-patch/parser.js';
export { createPlanTool } from './tools/plan.js';
export { parseCommand } from './tools/parsed-command.js';
export { assessExec, askToRetryUnsandboxed, type ExecAssessment } from './approvals/exec-policy.js';
export { assessPatch, type PatchAssessment } from './approvals/patch-policy.js';
export { isKnownSafeCommand } from './approvals/safe-commands.js';
export { EXEC_REJECTED_BY_USER, PATCH_REJECTED_BY_USER } from './approvals/messages.js';
export {
  SANDBOX_UNAVAILABLE,
  SandboxUnavailableError,
  type Sandbox,
  type SandboxKind,
  type SandboxWrapOptions,
  type WritableRoot,
} from './sandbox/sandbox.js';
export { BwrapSandbox, bwrapArgs } from './sandbox/bwrap.js';
export { SeatbeltSandbox, seatbeltProfile } from './sandbox/seatbelt.js';
export { createPlatformSandbox, NoSandbox } from './sandbox/platform.js';
export { sandboxOptionsFor, isWritablePath } from './sandbox/writable-roots.js';
export { runCommand, type ExecResult, type ExecTermination, type OutputStream, type RunCommandOptions } from './exec/run-command.js';
export { truncateForModel } from './exec/truncate-output.js';
// --- end tools ---
