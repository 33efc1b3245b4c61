// One apply_patch call end to end: parse, compute every change in memory, decide on approval,
// emit patch_apply_begin/end, and commit all files or none. Shared by the apply_patch tool and the
// shell tool (which routes `apply_patch` commands here).
import path from 'node:path';
import { PATCH_REJECTED_BY_USER, isApproved, throwIfAbortDecision } from '../../approvals/messages.js';
import { assessPatch } from '../../approvals/patch-policy.js';
import { sandboxOptionsFor } from '../../sandbox/writable-roots.js';
import type { ApprovalRequest, ToolContext, ToolResult } from '../tool.js';
import { commitPatch } from './commit.js';
import { PatchParseError, parsePatch } from './parser.js';
import { PatchApplyError, planPatch, type PatchPlan } from './plan.js';

export const VERIFICATION_FAILED = 'apply_patch verification failed';

export async function runPatch(patchText: string, ctx: ToolContext, options: { workdir?: string | null } = {}): Promise<ToolResult> {
  const cwd = options.workdir ? path.resolve(ctx.cwd, options.workdir) : ctx.cwd;
  let plan: PatchPlan;
  try {
    plan = await planPatch(parsePatch(patchText), cwd);
  } catch (err) {
    if (err instanceof PatchParseError || err instanceof PatchApplyError) {
      return { output: `${VERIFICATION_FAILED}: ${err.message}`, success: false };
    }
    throw err;
  }

  const assessment = assessPatch({
    approvalPolicy: ctx.approvalPolicy,
    sandboxPolicy: ctx.sandboxPolicy,
    paths: plan.paths,
    wrapOptions: sandboxOptionsFor(ctx.sandboxPolicy, { cwd: ctx.cwd }),
  });
  let autoApproved = true;
  switch (assessment.kind) {
    case 'auto':
      break;
    case 'reject':
      return { output: assessment.message, success: false };
    case 'ask': {
      const request: ApprovalRequest = {
        kind: 'patch',
        changes: plan.changes,
        reason: assessment.reason,
        grantRoot: assessment.grantRoot,
      };
      if (ctx.isApprovedForSession(request)) break;
      autoApproved = false;
      // An `abort` decision rejects with turn_aborted; it propagates and ends the turn.
      const decision = await ctx.requestApproval(request);
      throwIfAbortDecision(decision);
      if (!isApproved(decision)) return { output: PATCH_REJECTED_BY_USER, success: false };
      break;
    }
  }
  ctx.signal.throwIfAborted();

  ctx.emit({ type: 'patch_apply_begin', call_id: ctx.callId, turn_id: ctx.turnId, auto_approved: autoApproved, changes: plan.changes });
  try {
    await commitPatch(plan.writes);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.emit({ type: 'patch_apply_end', call_id: ctx.callId, turn_id: ctx.turnId, stdout: '', stderr: `${message}\n`, success: false });
    return { output: message, success: false };
  }
  const stdout = `Success. Updated the following files:\n${plan.summary.join('\n')}\n`;
  ctx.emit({ type: 'patch_apply_end', call_id: ctx.callId, turn_id: ctx.turnId, stdout, stderr: '', success: true });
  return { output: stdout, success: true };
}
