import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.js';
import { McpClientError } from './errors.js';
import type { OperationSpec } from './operation.js';
import { MAX_SESSION_RECOVERIES, runOperation } from './operation.js';

const spec = (over: Partial<OperationSpec> = {}): OperationSpec => ({
  label: 'tools/list',
  kind: 'request',
  timeoutMs: 5_000,
  retryTransient: true,
  retryDelaysMs: [5, 10],
  ...over,
});

/** An attempt function that fails with the queued errors, then succeeds. */
function script(...failures: McpClientError[]) {
  let calls = 0;
  const attempt = async () => {
    calls += 1;
    const next = failures.shift();
    if (next) throw next;
    return 'ok';
  };
  return { attempt, calls: () => calls };
}

const err = (code: McpClientError['code'], status?: number) => new McpClientError(code, code, { status });

describe('runOperation', () => {
  it('retries transient failures after each delay, then gives up', async () => {
    const ok = script(err('network'), err('http_status', 503));
    await expect(runOperation(spec(), { classify: classifyError }, ok.attempt)).resolves.toEqual({ value: 'ok', recovered: false });
    expect(ok.calls()).toBe(3);

    const bad = script(err('network'), err('network'), err('network'));
    await expect(runOperation(spec(), { classify: classifyError }, bad.attempt)).rejects.toMatchObject({ code: 'network' });
    expect(bad.calls()).toBe(3);
  });

  it.each(['auth_required', 'session_expired', 'decode', 'insufficient_scope'] as const)('never retries %s as transient', async (code) => {
    const s = script(err(code));
    await expect(runOperation(spec(), { classify: classifyError }, s.attempt)).rejects.toMatchObject({ code });
    expect(s.calls()).toBe(1);
  });

  it('does not retry when the operation is not marked retryable, nor a 4xx', async () => {
    const s = script(err('network'));
    await expect(runOperation(spec({ retryTransient: false }), { classify: classifyError }, s.attempt)).rejects.toMatchObject({ code: 'network' });
    const t = script(err('http_status', 400));
    await expect(runOperation(spec(), { classify: classifyError }, t.attempt)).rejects.toMatchObject({ code: 'http_status' });
    expect(s.calls() + t.calls()).toBe(2);
  });

  it('does not start a retry that cannot finish inside the deadline', async () => {
    const s = script(err('network'), err('network'));
    await expect(runOperation(spec({ timeoutMs: 100, retryDelaysMs: [500] }), { classify: classifyError }, s.attempt)).rejects.toMatchObject({ code: 'network' });
    expect(s.calls()).toBe(1);
  });

  it('recovers a session once per operation', async () => {
    let recoveries = 0;
    const hooks = { classify: classifyError, recoverSession: async () => void (recoveries += 1) };
    const once = script(err('session_expired'));
    await expect(runOperation(spec(), hooks, once.attempt)).resolves.toEqual({ value: 'ok', recovered: true });
    const twice = script(err('session_expired'), err('session_expired'));
    await expect(runOperation(spec(), hooks, twice.attempt)).rejects.toMatchObject({ code: 'session_expired' });
    expect(recoveries).toBe(2);
    expect(twice.calls()).toBe(2);
  });

  it('follows a later expiry of a shared session, but not a session refused outright, and never past the cap', async () => {
    let recoveries = 0;
    const shared = { classify: classifyError, recoverSession: async () => void (recoveries += 1), mayRecoverAgain: () => true };
    const thrice = script(err('session_expired'), err('session_expired'), err('session_expired'));
    await expect(runOperation(spec(), shared, thrice.attempt)).resolves.toEqual({ value: 'ok', recovered: true });
    expect(recoveries).toBe(3);

    const refused = script(err('session_expired'), err('session_expired'));
    await expect(runOperation(spec(), { ...shared, mayRecoverAgain: () => false }, refused.attempt)).rejects.toMatchObject({ code: 'session_expired' });
    expect(refused.calls()).toBe(2);

    const endless = script(...Array.from({ length: MAX_SESSION_RECOVERIES + 5 }, () => err('session_expired')));
    await expect(runOperation(spec(), shared, endless.attempt)).rejects.toMatchObject({ code: 'session_expired' });
    expect(endless.calls()).toBe(MAX_SESSION_RECOVERIES + 1);
  });

  it('reports a recovery as its own only when it did the recovering', async () => {
    const joined = script(err('session_expired'));
    await expect(runOperation(spec(), { classify: classifyError, recoverSession: async () => false }, joined.attempt)).resolves.toEqual({ value: 'ok', recovered: false });
  });

  it('retries an auth failure once, and only when newer credentials exist', async () => {
    const adopt = script(err('auth_required'), err('auth_required'));
    await expect(runOperation(spec(), { classify: classifyError, adoptCredentials: async () => true }, adopt.attempt)).rejects.toMatchObject({ code: 'auth_required' });
    expect(adopt.calls()).toBe(2);
    const none = script(err('auth_required'));
    await expect(runOperation(spec(), { classify: classifyError, adoptCredentials: async () => false }, none.attempt)).rejects.toMatchObject({ code: 'auth_required' });
    expect(none.calls()).toBe(1);
  });

  it('times out with Codex texts, for requests and handshakes', async () => {
    const hang = () => new Promise<never>(() => {});
    await expect(runOperation(spec({ label: 'tools/call', timeoutMs: 50 }), { classify: classifyError }, hang)).rejects.toThrow('timed out awaiting tools/call after 50ms');
    await expect(runOperation(spec({ kind: 'handshake', timeoutMs: 1_000 }), { classify: classifyError }, hang)).rejects.toThrow(
      'timed out handshaking with MCP server after 1s',
    );
  });

  it('progress extends the deadline; the attempt sees the combined signal', async () => {
    const result = await runOperation(spec({ timeoutMs: 1_000, progress: true }), { classify: classifyError }, async (a) => {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 300));
        a.onprogress?.({ progress: i });
      }
      expect(a.signal.aborted).toBe(false);
      return 'long but alive';
    });
    expect(result.value).toBe('long but alive');
  });

  it('reports a caller abort as cancelled', async () => {
    const controller = new AbortController();
    const run = runOperation(spec({ signals: [controller.signal] }), { classify: classifyError }, (a) => new Promise((_, reject) => a.signal.addEventListener('abort', () => reject(a.signal.reason))));
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
  });
});
