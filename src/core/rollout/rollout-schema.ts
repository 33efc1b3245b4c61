// The rollout file format: one JSON object per line, `{timestamp, type, payload}` as Codex writes it,
// with session metadata first, then conversation items, turn contexts and key events.
import { z } from 'zod';
import { AskForApprovalSchema, SandboxPolicySchema } from '../../protocol/index.js';
import { ResponseItemSchema } from '../model/model-types.js';

export const SessionMetaSchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  cwd: z.string(),
  originator: z.string(),
  cli_version: z.string(),
  model: z.string(),
  model_provider: z.string(),
  approval_policy: AskForApprovalSchema,
  sandbox_policy: SandboxPolicySchema,
  base_instructions: z.string().nullable(),
  developer_instructions: z.string().nullable(),
});
export type SessionMeta = z.infer<typeof SessionMetaSchema>;

export const TurnContextSchema = z.object({
  turn_id: z.string(),
  cwd: z.string(),
  model: z.string(),
  model_provider: z.string(),
  approval_policy: AskForApprovalSchema,
  sandbox_policy: SandboxPolicySchema,
});
export type TurnContext = z.infer<typeof TurnContextSchema>;

export const RolloutLineSchema = z.discriminatedUnion('type', [
  z.object({ timestamp: z.string(), type: z.literal('session_meta'), payload: SessionMetaSchema }),
  z.object({ timestamp: z.string(), type: z.literal('response_item'), payload: ResponseItemSchema }),
  z.object({ timestamp: z.string(), type: z.literal('turn_context'), payload: TurnContextSchema }),
  // Events are kept loosely typed: a newer writer's event kinds must not make old files unreadable.
  z.object({ timestamp: z.string(), type: z.literal('event_msg'), payload: z.object({ type: z.string() }).passthrough() }),
]);
export type RolloutLine = z.infer<typeof RolloutLineSchema>;

// The file layout moved to the store's file backend; re-exported for the names core always offered.
export { fileTimestamp, rolloutPath, sessionsRoot } from '../../store/index.js';
