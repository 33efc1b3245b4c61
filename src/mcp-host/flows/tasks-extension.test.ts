// A task's open questions: answered by key, withdrawn by their signal, bounded in number, and no
// abort listener left behind on a long-lived signal.
import { describe, expect, it } from 'vitest';
import { MAX_OPEN_QUESTIONS, TaskQuestions, declaresTasks, taskNotFound } from './tasks-extension.js';

describe('TaskQuestions', () => {
  it('answers each question by its key and ignores unknown keys', async () => {
    const q = new TaskQuestions('input');
    const signal = new AbortController().signal;
    const a = q.ask({ method: 'elicitation/create', params: { message: 'a?' } }, signal, 'a');
    const b = q.ask({ method: 'elicitation/create', params: { message: 'b?' } }, signal, 'b');
    expect(Object.keys(q.inputRequests())).toEqual(['a', 'b']);
    q.answer({ b: { action: 'accept' }, zz: {} });
    await expect(b).resolves.toEqual({ action: 'accept' });
    expect(q.size).toBe(1);
    q.rejectAll('the task ended');
    await expect(a).rejects.toThrow('the task ended');
    expect(q.size).toBe(0);
  });

  it('refuses a question past its bound, and a second under a key already open', async () => {
    const q = new TaskQuestions('input');
    const signal = new AbortController().signal;
    const open = Array.from({ length: MAX_OPEN_QUESTIONS }, () => q.ask({ method: 'roots/list' }, signal));
    await expect(q.ask({ method: 'roots/list' }, signal)).rejects.toThrow(`already waits for ${MAX_OPEN_QUESTIONS} answers`);
    q.rejectAll('done');
    await Promise.allSettled(open);
    const first = q.ask({ method: 'roots/list' }, signal, 'k');
    await expect(q.ask({ method: 'roots/list' }, signal, 'k')).rejects.toThrow("under the key 'k'");
    q.answer({ k: { roots: [] } });
    await expect(first).resolves.toEqual({ roots: [] });
  });

  it('drops a question its signal withdraws, and leaves no listener on a signal once answered', async () => {
    const q = new TaskQuestions('input');
    const controller = new AbortController();
    const withdrawn = q.ask({ method: 'elicitation/create' }, controller.signal, 'w');
    controller.abort();
    await expect(withdrawn).rejects.toThrow('was withdrawn');
    expect(q.size).toBe(0);
    const longLived = new AbortController();
    let listeners = 0;
    const add = longLived.signal.addEventListener.bind(longLived.signal);
    const remove = longLived.signal.removeEventListener.bind(longLived.signal);
    longLived.signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add;
    longLived.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (listeners--, remove(...args))) as typeof remove;
    for (let i = 0; i < 3; i++) {
      const p = q.ask({ method: 'elicitation/create' }, longLived.signal, `k${i}`);
      q.answer({ [`k${i}`]: {} });
      await p;
    }
    expect(listeners).toBe(0);
  });

  it('names the extension and echoes an id only so far', () => {
    expect(declaresTasks({ extensions: { 'io.modelcontextprotocol/tasks': {} } })).toBe(true);
    expect(declaresTasks({ extensions: {} })).toBe(false);
    expect(declaresTasks(undefined)).toBe(false);
    expect(taskNotFound('x'.repeat(10_000)).message.length).toBeLessThan(300);
  });
});

describe('TaskQuestions.asked', () => {
  it('wakes when a question is asked, and otherwise when its time, its signal or wake() ends the wait', async () => {
    const q = new TaskQuestions('input');
    const never = new AbortController().signal;
    const t0 = Date.now();
    const waiting = q.asked(5_000, never);
    void q.ask({ method: 'roots/list' }, never, 'r').catch(() => {});
    await waiting;
    expect(Date.now() - t0).toBeLessThan(1_000);
    await q.asked(5_000, never); // one is open: at once
    q.rejectAll('done');
    const t1 = Date.now();
    await q.asked(30, never);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(25);
    const gone = new AbortController();
    const aborted = q.asked(5_000, gone.signal);
    gone.abort();
    await aborted;
    const woken = q.asked(5_000, never);
    q.wake();
    await woken;
    expect(Date.now() - t1).toBeLessThan(1_000);
  });
});
