import { describe, expect, it } from 'vitest';
import { jsonToToml } from './call-config.js';
import { parseCodexArgs, parseReplyArgs, parseThreadId } from './tool-args.js';

describe('codex arguments', () => {
  it('reads the kebab-case fields and ignores unknown keys', () => {
    const parsed = parseCodexArgs({
      prompt: 'hi',
      model: 'm',
      profile: 'p',
      cwd: 'sub',
      'approval-policy': 'never',
      sandbox: 'read-only',
      config: { a: 1 },
      'base-instructions': 'b',
      'developer-instructions': 'd',
      'compact-prompt': 'c',
      'include-plan-tool': true,
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        prompt: 'hi',
        model: 'm',
        profile: 'p',
        cwd: 'sub',
        approvalPolicy: 'never',
        sandbox: 'read-only',
        config: { a: 1 },
        baseInstructions: 'b',
        developerInstructions: 'd',
        compactPrompt: 'c',
      },
    });
  });

  it('reports errors in serde wording', () => {
    expect(parseCodexArgs({})).toEqual({ ok: false, message: 'missing field `prompt`' });
    expect(parseCodexArgs({ prompt: 5 })).toEqual({ ok: false, message: 'invalid type: integer `5`, expected a string' });
    expect(parseCodexArgs({ prompt: 'x', 'approval-policy': 'always' })).toEqual({
      ok: false,
      message: 'unknown variant `always`, expected one of `untrusted`, `on-failure`, `on-request`, `never`',
    });
    expect(parseCodexArgs({ prompt: 'x', config: [1] })).toEqual({ ok: false, message: 'invalid type: sequence, expected a map' });
    expect(parseCodexArgs('prompt')).toEqual({ ok: false, message: 'invalid type: string "prompt", expected a map' });
  });

  it('an empty prompt is allowed', () => {
    expect(parseCodexArgs({ prompt: '' }).ok).toBe(true);
  });
});

describe('codex-reply arguments', () => {
  it('threadId wins over the deprecated conversationId', () => {
    expect(parseReplyArgs({ prompt: 'p', threadId: 'a', conversationId: 'b' })).toEqual({ ok: true, value: { prompt: 'p', threadId: 'a' } });
    expect(parseReplyArgs({ prompt: 'p', conversationId: 'b' })).toEqual({ ok: true, value: { prompt: 'p', threadId: 'b' } });
    expect(parseReplyArgs({ prompt: 'p' })).toEqual({ ok: true, value: { prompt: 'p', threadId: null } });
    expect(parseReplyArgs({ threadId: 'a' })).toEqual({ ok: false, message: 'missing field `prompt`' });
  });
});

describe('thread ids', () => {
  it('accepts hyphenated and simple UUIDs, normalised to lower-case hyphenated', () => {
    expect(parseThreadId('019BBED6-1E9E-7F31-984C-A05B65045719')).toEqual({ ok: true, value: '019bbed6-1e9e-7f31-984c-a05b65045719' });
    expect(parseThreadId('019bbed61e9e7f31984ca05b65045719')).toEqual({ ok: true, value: '019bbed6-1e9e-7f31-984c-a05b65045719' });
  });

  it('explains malformed ids like the uuid crate', () => {
    expect(parseThreadId('not-a-uuid')).toEqual({ ok: false, message: 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1' });
    expect(parseThreadId('abc')).toEqual({ ok: false, message: 'invalid length: expected length 32 for simple format, found 3' });
    expect(parseThreadId('0000-0000')).toEqual({ ok: false, message: 'invalid group count: expected 5, found 2' });
    expect(parseThreadId('019bbed6-1e9e-7f31-984c-a05b6504571')).toEqual({ ok: false, message: 'invalid group length in group 4: expected 12, found 11' });
  });
});

describe('config values from JSON', () => {
  it('null becomes the empty string, tables and arrays recurse', () => {
    expect(jsonToToml({ a: null, b: [1, null], c: { d: null, e: 2.5 } })).toEqual({ a: '', b: [1, ''], c: { d: '', e: 2.5 } });
  });
});
