// Codex's approval semantics for commands: given the policies and the command, whether it runs in the
// sandbox, runs outside it, or the user is asked first (an approved command runs outside the sandbox).
import type { AskForApproval, SandboxPolicy } from '../../protocol/index.js';
import { assertNever } from '../../util/index.js';
import { isKnownSafeCommand } from './safe-commands.js';

export type ExecAssessment =
  /** Run without asking; `sandboxed` false only when the policy itself is unconfined. */
  | { kind: 'run'; sandboxed: boolean }
  /** Ask first; on approval the command runs outside the sandbox. */
  | { kind: 'ask'; reason: string | null }
  /** The user approved this command for the session already: run it as approved. */
  | { kind: 'run-approved' };

export interface ExecAssessmentInput {
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  command: readonly string[];
  /** The model asked to run outside the sandbox (`with_escalated_permissions`). */
  escalated: boolean;
  justification?: string | undefined;
  approvedForSession: boolean;
  platform?: NodeJS.Platform;
}

export function assessExec(input: ExecAssessmentInput): ExecAssessment {
  const { approvalPolicy, sandboxPolicy } = input;
  if (input.approvedForSession) return { kind: 'run-approved' };
  const sandboxed = sandboxPolicy.type !== 'danger-full-access';
  const reason = input.escalated ? (input.justification?.trim() || null) : null;
  if (isKnownSafeCommand(input.command, input.platform)) return { kind: 'run', sandboxed };
  switch (approvalPolicy) {
    case 'untrusted':
      return { kind: 'ask', reason };
    case 'on-request':
      // Escalation only means something when there is a sandbox to leave.
      return input.escalated && sandboxed ? { kind: 'ask', reason } : { kind: 'run', sandboxed };
    case 'on-failure':
    case 'never':
      return { kind: 'run', sandboxed };
    default:
      return assertNever(approvalPolicy, 'approval policy');
  }
}

/** After a sandboxed run fails, whether to ask the user to run it again without the sandbox. */
export function askToRetryUnsandboxed(approvalPolicy: AskForApproval): boolean {
  return approvalPolicy === 'on-failure';
}
