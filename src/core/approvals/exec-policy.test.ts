import { describe, expect, it } from 'vitest';
import type { AskForApproval, SandboxPolicy } from '../../protocol/index.js';
import { askToRetryUnsandboxed, assessExec } from './exec-policy.js';

const ws: SandboxPolicy = { type: 'workspace-write', writable_roots: [], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false };
const full: SandboxPolicy = { type: 'danger-full-access' };
const SAFE = ['git', 'status'];
const UNSAFE = ['npm', 'install'];

function assess(approvalPolicy: AskForApproval, command: string[], extra: { escalated?: boolean; sandbox?: SandboxPolicy; session?: boolean } = {}) {
  return assessExec({
    approvalPolicy,
    sandboxPolicy: extra.sandbox ?? ws,
    command,
    escalated: extra.escalated ?? false,
    justification: extra.escalated ? 'needs the network' : undefined,
    approvedForSession: extra.session ?? false,
    platform: 'linux',
  });
}

describe('assessExec', () => {
  it.each(['untrusted', 'on-request', 'on-failure', 'never'] as const)('%s: known-safe commands run sandboxed without asking', (p) => {
    expect(assess(p, SAFE)).toEqual({ kind: 'run', sandboxed: true });
  });

  it('untrusted asks for anything else, with the justification when escalated', () => {
    expect(assess('untrusted', UNSAFE)).toEqual({ kind: 'ask', reason: null });
    expect(assess('untrusted', UNSAFE, { escalated: true })).toEqual({ kind: 'ask', reason: 'needs the network' });
    expect(assess('untrusted', UNSAFE, { sandbox: full })).toEqual({ kind: 'ask', reason: null });
  });

  it('on-request runs sandboxed unless the model asks to escalate', () => {
    expect(assess('on-request', UNSAFE)).toEqual({ kind: 'run', sandboxed: true });
    expect(assess('on-request', UNSAFE, { escalated: true })).toEqual({ kind: 'ask', reason: 'needs the network' });
    expect(assess('on-request', UNSAFE, { escalated: true, sandbox: full })).toEqual({ kind: 'run', sandboxed: false });
  });

  it('on-failure and never run sandboxed, ignoring escalation', () => {
    for (const p of ['on-failure', 'never'] as const) {
      expect(assess(p, UNSAFE, { escalated: true })).toEqual({ kind: 'run', sandboxed: true });
      expect(assess(p, UNSAFE, { sandbox: full })).toEqual({ kind: 'run', sandboxed: false });
    }
  });

  it('a command approved for the session runs as approved', () => {
    expect(assess('untrusted', UNSAFE, { session: true })).toEqual({ kind: 'run-approved' });
  });

  it('only on-failure asks to retry a sandbox failure unconfined', () => {
    expect(['untrusted', 'on-request', 'on-failure', 'never'].filter((p) => askToRetryUnsandboxed(p as AskForApproval))).toEqual(['on-failure']);
  });
});
