import { describe, expect, it } from 'vitest';
import { isSwitchboardError } from '../../util/index.js';
import type { ApprovalRequest } from '../tools/tool.js';
import { ApprovalBroker } from './approval-broker.js';
import { newThreadId } from './ids.js';

describe('ApprovalBroker', () => {
  it('delivers a decision to the matching waiter only', async () => {
    const b = new ApprovalBroker();
    const signal = new AbortController().signal;
    const p = b.waitForApproval('exec', 'c1', 't1', signal);
    expect(b.resolveApproval('patch', 'c1', 'approved')).toBe(false);
    expect(b.resolveApproval('exec', 'c1', 'approved', 'other-turn')).toBe(false);
    expect(b.resolveApproval('exec', 'c1', 'denied', 't1')).toBe(true);
    await expect(p).resolves.toBe('denied');
    expect(b.resolveApproval('exec', 'c1', 'approved')).toBe(false);
  });

  it('rejects waiters with turn_aborted when the turn is aborted', async () => {
    const b = new ApprovalBroker();
    const c = new AbortController();
    const p = b.waitForApproval('exec', 'c1', 't1', c.signal);
    c.abort();
    const err = await p.catch((e: unknown) => e);
    expect(isSwitchboardError(err, 'turn_aborted')).toBe(true);
    expect(b.resolveApproval('exec', 'c1', 'approved')).toBe(false);
  });

  it('remembers approved_for_session: same argv for exec, covered paths or roots for patches', () => {
    const b = new ApprovalBroker();
    const exec = (command: string[]): ApprovalRequest => ({ kind: 'exec', command, cwd: '/w', reason: null, parsedCmd: [] });
    expect(b.isApprovedForSession(exec(['make', 'test']))).toBe(false);
    b.remember(exec(['make', 'test']));
    expect(b.isApprovedForSession(exec(['make', 'test']))).toBe(true);
    expect(b.isApprovedForSession(exec(['make', 'clean']))).toBe(false);
    const patch = (files: string[], grantRoot: string | null = null) => ({
      kind: 'patch' as const,
      changes: Object.fromEntries(files.map((f) => [f, { type: 'add' as const, content: '' }])),
      reason: null,
      grantRoot,
    });
    b.remember(patch(['/w/a.txt']));
    expect(b.isApprovedForSession(patch(['/w/a.txt']))).toBe(true);
    expect(b.isApprovedForSession(patch(['/w/a.txt', '/w/b.txt']))).toBe(false);
    b.remember(patch(['/w/b.txt'], '/w/sub'));
    expect(b.isApprovedForSession(patch(['/w/sub/deep/c.txt']))).toBe(true);
    expect(b.isApprovedForSession(patch(['/w/subway.txt']))).toBe(false);
  });
});

describe('newThreadId', () => {
  it('is a time-ordered UUID v7', () => {
    const a = newThreadId(1_700_000_000_000);
    const b = newThreadId(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
  });
});
