// The rollout file format: one JSON object per line, `{timestamp, type, payload}` as Codex writes it,
// with session metadata first, then conversation items, turn contexts and key events.
import path from 'node:path';
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

/** `YYYY-MM-DDTHH-MM-SS` in UTC, the timestamp part of a rollout file name. */
export function fileTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/:/g, '-');
}

export function sessionsRoot(home: string): string {
  return path.join(home, 'sessions');
}

/** `$home/sessions/YYYY/MM/DD/rollout-<timestamp>-<threadId>.jsonl` (UTC date). */
export function rolloutPath(home: string, threadId: string, date: Date): string {
  const iso = date.toISOString();
  return path.join(sessionsRoot(home), iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10), `rollout-${fileTimestamp(date)}-${threadId}.jsonl`);
}
