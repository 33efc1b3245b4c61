// Texts the model and the user see when an approval goes against a tool call (Codex's wording).
import { SwitchboardError } from '../../util/index.js';
import type { ReviewDecision } from '../../protocol/index.js';

export const EXEC_REJECTED_BY_USER = 'exec command rejected by user';
export const PATCH_REJECTED_BY_USER = 'patch rejected by user';
export const RETRY_WITHOUT_SANDBOX_REASON = 'command failed; retry without sandbox?';
export const TURN_ABORTED = 'turn_aborted';

/** True when the decision lets the call go ahead. */
export function isApproved(decision: ReviewDecision): boolean {
  return decision === 'approved' || decision === 'approved_for_session';
}

/**
 * ToolContext.requestApproval rejects on `abort`; should an implementation resolve with it instead,
 * the turn still ends the same way.
 */
export function throwIfAbortDecision(decision: ReviewDecision): void {
  if (decision === 'abort') throw new SwitchboardError(TURN_ABORTED, 'turn aborted by the user');
}
