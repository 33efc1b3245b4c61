import { describe, expect, it } from 'vitest';
import {
  clampDecision,
  decisionFromResponse,
  execApprovalParams,
  patchApprovalParams,
  shellJoin,
  supportsFormElicitation,
  supportsUrlElicitation,
} from './approval-elicitation.js';

describe('decisionFromResponse (reference §8.3)', () => {
  const cases: [unknown, string][] = [
    [{ action: 'accept' }, 'approved'],
    [{ action: 'accept', content: {} }, 'approved'],
    [{ action: 'accept', content: { decision: 'approved_for_session' } }, 'approved_for_session'],
    [{ action: 'accept', content: { decision: 'denied' }, decision: 'approved' }, 'denied'],
    [{ action: 'accept', decision: 'abort' }, 'abort'],
    [{ action: 'decline' }, 'denied'],
    [{ action: 'cancel', decision: 'approved' }, 'denied'],
    [{ action: 'decline', content: { decision: 'approved' } }, 'denied'],
    [{ decision: 'approved' }, 'approved'],
    [{ decision: 'abort' }, 'abort'],
    [{}, 'denied'],
    [{ content: { decision: 'approved' } }, 'denied'],
    [{ action: 'maybe' }, 'denied'],
    [{ action: 'accept', content: { decision: 'sure' } }, 'denied'],
    [{ action: 'accept', content: 'approved' }, 'denied'],
    [{ decision: 'yes' }, 'denied'],
    [{ decision: 'timed_out' }, 'denied'],
    [{ action: 'accept', content: { decision: { approved_execpolicy_amendment: { proposed_execpolicy_amendment: ['git'] } } } }, 'approved_for_session'],
    [{ action: 'accept', content: { decision: { network_policy_amendment: { network_policy_amendment: { host: 'x', action: 'allow' } } } } }, 'denied'],
    ['approved', 'denied'],
    [null, 'denied'],
    [[{ decision: 'approved' }], 'denied'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} -> ${expected}`, () => expect(decisionFromResponse(input)).toBe(expected));
  }
});

describe('clampDecision (reference §8.4)', () => {
  it('keeps offered decisions, always allows denied and abort, downgrades the rest to denied', () => {
    expect(clampDecision('approved', ['approved', 'abort'])).toBe('approved');
    expect(clampDecision('approved_for_session', ['approved', 'abort'])).toBe('denied');
    expect(clampDecision('denied', ['approved'])).toBe('denied');
    expect(clampDecision('abort', ['approved'])).toBe('abort');
  });
});

describe('form elicitation capability (reference §8.5)', () => {
  it('follows Codex rule: form present, or elicitation without url', () => {
    expect(supportsFormElicitation({})).toBe(false);
    expect(supportsFormElicitation(undefined)).toBe(false);
    expect(supportsFormElicitation({ elicitation: {} })).toBe(true);
    expect(supportsFormElicitation({ elicitation: { url: {} } })).toBe(false);
    expect(supportsFormElicitation({ elicitation: { form: {} } })).toBe(true);
    expect(supportsFormElicitation({ elicitation: { form: {}, url: {} } })).toBe(true);
    expect(supportsUrlElicitation({ elicitation: { url: {} } })).toBe(true);
    expect(supportsUrlElicitation({ elicitation: {} })).toBe(false);
  });
});

describe('shellJoin', () => {
  it('quotes like shlex: bare safe words, single quotes otherwise', () => {
    expect(shellJoin(['bash', '-lc', 'touch created_by_shell_tool.txt'])).toBe("bash -lc 'touch created_by_shell_tool.txt'");
    expect(shellJoin(['echo', "it's", ''])).toBe(`echo 'it'"'"'s' ''`);
    expect(shellJoin(['ls', '-la', '/tmp/a_b.c'])).toBe('ls -la /tmp/a_b.c');
  });
});

describe('elicitation params', () => {
  const origin = { threadId: 'T', toolCallId: '1', eventId: '1' };

  it('exec approval: Codex message lines and codex_* fields', () => {
    const params = execApprovalParams(origin, {
      type: 'exec_approval_request',
      call_id: 'call1234',
      turn_id: '1',
      command: ['bash', '-lc', 'touch created_by_shell_tool.txt'],
      cwd: '/path/to/repo',
      reason: null,
      parsed_cmd: [{ type: 'unknown', cmd: 'touch created_by_shell_tool.txt' }],
    });
    expect(params).toEqual({
      message:
        "Allow Codex to run `bash -lc 'touch created_by_shell_tool.txt'` in `/path/to/repo`?\nWorking directory URI: file:///path/to/repo\nAllowed decisions: [\"approved\",\"approved_for_session\",\"abort\"]",
      requestedSchema: { type: 'object', properties: {} },
      threadId: 'T',
      codex_elicitation: 'exec-approval',
      codex_mcp_tool_call_id: '1',
      codex_event_id: '1',
      codex_call_id: 'call1234',
      codex_command: ['bash', '-lc', 'touch created_by_shell_tool.txt'],
      codex_cwd: '/path/to/repo',
      codex_parsed_cmd: [{ type: 'unknown', cmd: 'touch created_by_shell_tool.txt' }],
    });
  });

  it('exec approval with a reason adds the Reason line', () => {
    const params = execApprovalParams(origin, { type: 'exec_approval_request', call_id: 'c', turn_id: '1', command: ['rm', 'x'], cwd: '/r', reason: 'needs write', parsed_cmd: [] });
    expect(String(params.message).split('\n')).toEqual(['Allow Codex to run `rm x` in `/r`?', 'Reason: needs write', 'Working directory URI: file:///r', expect.stringMatching(/^Allowed decisions: /)]);
    expect(params.codex_reason).toBe('needs write');
  });

  it('patch approval: reason line first, grant root and changes', () => {
    const changes = { '/abs/f.txt': { type: 'update' as const, unified_diff: '@@ -1 +1 @@\n-a\n+b\n', move_path: null } };
    expect(patchApprovalParams(origin, { type: 'apply_patch_approval_request', call_id: 'c', turn_id: '1', changes, reason: 'outside', grant_root: '/abs' })).toEqual({
      message: 'outside\nAllow Codex to apply proposed code changes?',
      requestedSchema: { type: 'object', properties: {} },
      threadId: 'T',
      codex_elicitation: 'patch-approval',
      codex_mcp_tool_call_id: '1',
      codex_event_id: '1',
      codex_call_id: 'c',
      codex_reason: 'outside',
      codex_grant_root: '/abs',
      codex_changes: changes,
    });
    const plain = patchApprovalParams(origin, { type: 'apply_patch_approval_request', call_id: 'c', turn_id: '1', changes, reason: null, grant_root: null });
    expect(plain.message).toBe('Allow Codex to apply proposed code changes?');
    expect(plain).not.toHaveProperty('codex_reason');
    expect(plain).not.toHaveProperty('codex_grant_root');
  });
});
