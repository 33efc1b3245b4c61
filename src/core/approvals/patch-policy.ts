// Codex's approval semantics for apply_patch: patches that stay inside the writable roots apply
// without asking (except under `untrusted`); anything else is asked, or refused under `never`.
import path from 'node:path';
import type { AskForApproval, SandboxPolicy } from '../../protocol/index.js';
import { assertNever } from '../../util/index.js';
import type { SandboxWrapOptions } from '../sandbox/sandbox.js';
import { isWritablePath } from '../sandbox/writable-roots.js';

export type PatchAssessment =
  | { kind: 'auto' }
  | { kind: 'ask'; reason: string | null; grantRoot: string | null }
  | { kind: 'reject'; message: string };

export const PATCH_OUTSIDE_REJECTED = 'writing outside of the project; rejected by user approval settings';

export interface PatchAssessmentInput {
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  /** Every absolute path the patch writes or deletes (move destinations included). */
  paths: readonly string[];
  wrapOptions: SandboxWrapOptions;
}

/** The deepest folder containing every path (the root a session-wide grant would cover). */
export function commonParent(paths: readonly string[]): string | null {
  if (paths.length === 0) return null;
  let parent = path.dirname(paths[0]!);
  for (const p of paths.slice(1)) {
    while (path.relative(parent, p).startsWith('..')) {
      const up = path.dirname(parent);
      if (up === parent) break;
      parent = up;
    }
  }
  return parent;
}

export function assessPatch(input: PatchAssessmentInput): PatchAssessment {
  const outside = input.paths.filter((p) => !isWritablePath(p, input.sandboxPolicy, input.wrapOptions));
  switch (input.approvalPolicy) {
    case 'untrusted':
      return outside.length === 0
        ? { kind: 'ask', reason: null, grantRoot: null }
        : { kind: 'ask', reason: outsideReason(outside), grantRoot: commonParent(outside) };
    case 'on-request':
    case 'on-failure':
      return outside.length === 0
        ? { kind: 'auto' }
        : { kind: 'ask', reason: outsideReason(outside), grantRoot: commonParent(outside) };
    case 'never':
      return outside.length === 0 ? { kind: 'auto' } : { kind: 'reject', message: PATCH_OUTSIDE_REJECTED };
    default:
      return assertNever(input.approvalPolicy, 'approval policy');
  }
}

function outsideReason(outside: readonly string[]): string {
  return `writes outside the writable roots: ${outside.join(', ')}`;
}
