// The Tool seam: what the turn loop offers the model, and what a tool may use while it runs.
import type {
  AskForApproval,
  EventMsg,
  FileChange,
  ParsedCommand,
  ReviewDecision,
  SandboxPolicy,
} from '../../protocol/index.js';

/** JSON Schema for a tool's arguments, as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/** What a tool asks the user to approve: a command, or a patch. */
export type ApprovalRequest =
  | { kind: 'exec'; command: string[]; cwd: string; reason: string | null; parsedCmd: ParsedCommand[] }
  | { kind: 'patch'; changes: Record<string, FileChange>; reason: string | null; grantRoot: string | null };

/** What a running tool may use: its thread and turn, the policies, cancellation, events and approvals. */
export interface ToolContext {
  threadId: string;
  turnId: string;
  /** The model's call id for this invocation. */
  callId: string;
  cwd: string;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  /** Aborted when the turn is interrupted: stop work and return promptly. */
  signal: AbortSignal;
  /** Send an event to the thread's stream (exec_command_begin, patch_apply_end, ...). */
  emit(msg: EventMsg): void;
  /**
   * Ask the user. Resolves with the decision; `approved_for_session` is remembered by the thread
   * (see `isApprovedForSession`). An `abort` decision rejects with a SwitchboardError of code
   * `turn_aborted`, which ends the turn.
   */
  requestApproval(request: ApprovalRequest): Promise<ReviewDecision>;
  /** True when an equivalent request was answered `approved_for_session` earlier in this thread. */
  isApprovedForSession(request: ApprovalRequest): boolean;
}

/** Content returned to the model. */
export type ToolOutputItem = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string };

/** What a tool returns to the model. */
export interface ToolResult {
  /** Text, or a list of content items (images kept). */
  output: string | ToolOutputItem[];
  /** False when the tool failed in a way the model should see and may fix. */
  success: boolean;
}

/**
 * A tool the model can call. Failures the model can fix come back as results with
 * `success: false`; only fatal errors (and `turn_aborted`) are thrown.
 */
export interface Tool {
  name: string;
  description: string;
  parameters: JsonSchema;
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}
