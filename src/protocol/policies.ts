// Approval and sandbox policy values (Codex's wire spellings).
import { z } from 'zod';
import { APPROVAL_POLICIES, REVIEW_DECISIONS, SANDBOX_MODES } from './values.js';

export const AskForApprovalSchema = z.enum(APPROVAL_POLICIES);
/** When the agent asks before running commands (`approval_policy`): `untrusted`, `on-failure`, `on-request` or `never`. */
export type AskForApproval = z.infer<typeof AskForApprovalSchema>;

export const SandboxModeSchema = z.enum(SANDBOX_MODES);
/** What commands may touch (`sandbox_mode`): `read-only`, `workspace-write` or `danger-full-access`. */
export type SandboxMode = z.infer<typeof SandboxModeSchema>;

export const SandboxPolicySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('read-only') }),
  z.object({
    type: z.literal('workspace-write'),
    writable_roots: z.array(z.string()),
    network_access: z.boolean(),
    exclude_tmpdir_env_var: z.boolean(),
    exclude_slash_tmp: z.boolean(),
  }),
  z.object({ type: z.literal('danger-full-access') }),
]);
/** A sandbox mode with its settings (writable roots and network access for `workspace-write`). */
export type SandboxPolicy = z.infer<typeof SandboxPolicySchema>;

export const ReviewDecisionSchema = z.enum(REVIEW_DECISIONS);
/** An answer to an approval request: `approved`, `approved_for_session` (remembered for the thread), `denied` or `abort` (ends the turn). */
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;
