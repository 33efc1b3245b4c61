// Event {id, msg}: everything the core tells front-ends. msg.type and fields follow Codex's protocol.
import { z } from 'zod';
import { AskForApprovalSchema, SandboxPolicySchema } from './policies.js';
import {
  McpInvocationSchema,
  McpStartupCompleteEventSchema,
  McpStartupUpdateEventSchema,
  McpToolsChangedEventSchema,
} from './mcp-events.js';

export const DurationSchema = z.object({ secs: z.number().int(), nanos: z.number().int() });
export type Duration = z.infer<typeof DurationSchema>;

export function durationFromMs(ms: number): Duration {
  const secs = Math.floor(ms / 1000);
  return { secs, nanos: Math.round((ms - secs * 1000) * 1e6) };
}

export const ParsedCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('read'), cmd: z.string(), name: z.string(), path: z.string() }),
  z.object({ type: z.literal('list_files'), cmd: z.string(), path: z.string().optional() }),
  z.object({ type: z.literal('search'), cmd: z.string(), query: z.string().optional(), path: z.string().optional() }),
  z.object({ type: z.literal('unknown'), cmd: z.string() }),
]);
export type ParsedCommand = z.infer<typeof ParsedCommandSchema>;

export const FileChangeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), content: z.string() }),
  z.object({ type: z.literal('delete'), content: z.string() }),
  z.object({ type: z.literal('update'), unified_diff: z.string(), move_path: z.string().nullable() }),
]);
export type FileChange = z.infer<typeof FileChangeSchema>;

export const TokenUsageSchema = z.object({
  input_tokens: z.number(),
  cached_input_tokens: z.number(),
  output_tokens: z.number(),
  reasoning_output_tokens: z.number(),
  total_tokens: z.number(),
});
/** Token counts of one model response or of a thread so far. */
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export const PlanItemSchema = z.object({
  step: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
});
export type PlanItem = z.infer<typeof PlanItemSchema>;

const execCommandFields = {
  call_id: z.string(),
  turn_id: z.string(),
  command: z.array(z.string()),
  cwd: z.string(),
  parsed_cmd: z.array(ParsedCommandSchema),
  source: z.enum(['agent', 'user_shell']),
};

export const EventMsgSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session_configured'),
    session_id: z.string(),
    model: z.string(),
    model_provider_id: z.string(),
    approval_policy: AskForApprovalSchema,
    sandbox_policy: SandboxPolicySchema,
    cwd: z.string(),
    reasoning_effort: z.string().nullable().optional(),
    history_log_id: z.number(),
    history_entry_count: z.number(),
    rollout_path: z.string().nullable().optional(),
  }),
  z.object({ type: z.literal('task_started'), turn_id: z.string(), started_at: z.number().optional(), model_context_window: z.number().nullable() }),
  /** The user's input for a turn, echoed at its start (text joined; images as URLs). */
  z.object({ type: z.literal('user_message'), message: z.string(), images: z.array(z.string()).nullable().optional() }),
  z.object({ type: z.literal('agent_message_delta'), delta: z.string() }),
  z.object({ type: z.literal('agent_message'), message: z.string() }),
  z.object({ type: z.literal('agent_reasoning_delta'), delta: z.string() }),
  z.object({ type: z.literal('agent_reasoning'), text: z.string() }),
  z.object({ type: z.literal('exec_command_begin'), ...execCommandFields }),
  /** `chunk` is base64 of the raw bytes, as Codex sends it. */
  z.object({ type: z.literal('exec_command_output_delta'), call_id: z.string(), stream: z.enum(['stdout', 'stderr']), chunk: z.string() }),
  z.object({
    type: z.literal('exec_command_end'),
    ...execCommandFields,
    stdout: z.string(),
    stderr: z.string(),
    aggregated_output: z.string(),
    exit_code: z.number(),
    duration: DurationSchema,
    formatted_output: z.string(),
    status: z.enum(['completed', 'failed', 'declined']),
  }),
  z.object({
    type: z.literal('exec_approval_request'),
    call_id: z.string(),
    approval_id: z.string().optional(),
    turn_id: z.string(),
    command: z.array(z.string()),
    cwd: z.string(),
    reason: z.string().nullable().optional(),
    parsed_cmd: z.array(ParsedCommandSchema),
  }),
  z.object({
    type: z.literal('apply_patch_approval_request'),
    call_id: z.string(),
    turn_id: z.string(),
    changes: z.record(z.string(), FileChangeSchema),
    reason: z.string().nullable().optional(),
    grant_root: z.string().nullable().optional(),
  }),
  z.object({ type: z.literal('patch_apply_begin'), call_id: z.string(), turn_id: z.string(), auto_approved: z.boolean(), changes: z.record(z.string(), FileChangeSchema) }),
  z.object({ type: z.literal('patch_apply_end'), call_id: z.string(), turn_id: z.string(), stdout: z.string(), stderr: z.string(), success: z.boolean() }),
  z.object({ type: z.literal('mcp_tool_call_begin'), call_id: z.string(), invocation: McpInvocationSchema }),
  /** A progress notification from the server while the call runs (Codex's McpToolCallProgress). */
  z.object({ type: z.literal('mcp_tool_call_progress'), call_id: z.string(), message: z.string() }),
  z.object({
    type: z.literal('mcp_tool_call_end'),
    call_id: z.string(),
    invocation: McpInvocationSchema,
    duration: DurationSchema,
    /** Rust's Result<CallToolResult, String> as serde writes it. */
    result: z.union([z.object({ Ok: z.unknown() }), z.object({ Err: z.string() })]),
  }),
  z.object({ type: z.literal('mcp_startup_update'), ...McpStartupUpdateEventSchema.shape }),
  z.object({ type: z.literal('mcp_startup_complete'), ...McpStartupCompleteEventSchema.shape }),
  z.object({ type: z.literal('mcp_tools_changed'), ...McpToolsChangedEventSchema.shape }),
  z.object({
    type: z.literal('elicitation_request'),
    server_name: z.string(),
    id: z.union([z.string(), z.number()]),
    turn_id: z.string().nullable().optional(),
    request: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('plan_update'), explanation: z.string().nullable().optional(), plan: z.array(PlanItemSchema) }),
  z.object({
    type: z.literal('token_count'),
    info: z
      .object({ total_token_usage: TokenUsageSchema, last_token_usage: TokenUsageSchema, model_context_window: z.number().nullable() })
      .nullable(),
    rate_limits: z.unknown().nullable(),
  }),
  z.object({ type: z.literal('stream_error'), message: z.string() }),
  z.object({ type: z.literal('warning'), message: z.string() }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('turn_aborted'), turn_id: z.string(), reason: z.enum(['interrupted', 'replaced', 'review_ended']) }),
  /** The last event of a thread: it was shut down and its events() iterators end. */
  z.object({ type: z.literal('shutdown_complete') }),
  z.object({
    type: z.literal('task_complete'),
    turn_id: z.string(),
    last_agent_message: z.string().nullable(),
    completed_at: z.number().optional(),
    duration_ms: z.number().optional(),
    /** Set when the turn ended on a hard failure (an `error` event precedes it). */
    error: z.object({ message: z.string() }).nullable().optional(),
  }),
]);
/** The payload of an {@link Event}, tagged by `type` (Codex's `EventMsg` wire shapes). */
export type EventMsg = z.infer<typeof EventMsgSchema>;
/** Every `EventMsg` `type`. */
export type EventMsgType = EventMsg['type'];
/** The `EventMsg` variant with this `type`, e.g. `EventMsgOf<'task_complete'>`. */
export type EventMsgOf<T extends EventMsgType> = Extract<EventMsg, { type: T }>;

/** Validates an {@link Event} (for front-ends that receive Events as JSON). */
export const EventSchema = z.object({ id: z.string(), msg: EventMsgSchema });
/**
 * What a thread emits (Codex's `Event`): `id` is the submission that caused it (the turn id for a
 * turn's events, `""` outside any turn), `msg` the payload.
 */
export type Event = z.infer<typeof EventSchema>;
