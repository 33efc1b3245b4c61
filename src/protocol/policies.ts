// Approval and sandbox policy values (Codex's wire spellings).
import { z } from 'zod';

export const AskForApprovalSchema = z.enum(['untrusted', 'on-failure', 'on-request', 'never']);
export type AskForApproval = z.infer<typeof AskForApprovalSchema>;

export const SandboxModeSchema = z.enum(['read-only', 'workspace-write', 'danger-full-access']);
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
export type SandboxPolicy = z.infer<typeof SandboxPolicySchema>;

export const ReviewDecisionSchema = z.enum(['approved', 'approved_for_session', 'denied', 'abort']);
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;
