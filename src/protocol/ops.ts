// Op: submissions from front-ends into a thread (Codex's Submission {id, op}).
import { z } from 'zod';
import { ReviewDecisionSchema } from './policies.js';

export const InputItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), image_url: z.string() }),
]);
/** One piece of user input: text, or an image by URL (`data:` URLs included). */
export type InputItem = z.infer<typeof InputItemSchema>;

/** Validates an {@link Op} (for front-ends that receive Ops as JSON). */
export const OpSchema = z.discriminatedUnion('type', [
  /** Starts a turn; a second one while a turn runs is queued and starts when the current turn ends. */
  z.object({ type: z.literal('user_input'), items: z.array(InputItemSchema) }),
  /** Aborts the running turn (model stream, tool processes, MCP calls): it ends with `turn_aborted`. */
  z.object({ type: z.literal('interrupt') }),
  /** Answers `exec_approval_request`; `id` is the request's `approval_id`, else its `call_id`. */
  z.object({ type: z.literal('exec_approval'), id: z.string(), turn_id: z.string().optional(), decision: ReviewDecisionSchema }),
  /** Answers `apply_patch_approval_request`; `id` is the request's `call_id`. */
  z.object({ type: z.literal('patch_approval'), id: z.string(), decision: ReviewDecisionSchema }),
  z.object({
    type: z.literal('resolve_elicitation'),
    server_name: z.string(),
    request_id: z.union([z.string(), z.number()]),
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.record(z.string(), z.unknown()).optional(),
  }),
  /** Aborts any running turn, drops queued input, flushes the rollout, emits `shutdown_complete`. */
  z.object({ type: z.literal('shutdown') }),
]);
/**
 * What a front-end submits to a thread (Codex's `Op`): `user_input`, `interrupt`, `exec_approval`,
 * `patch_approval`, `resolve_elicitation` or `shutdown`. See `Thread.submit`.
 */
export type Op = z.infer<typeof OpSchema>;

export const SubmissionSchema = z.object({ id: z.string(), op: OpSchema });
export type Submission = z.infer<typeof SubmissionSchema>;
