import { describe, expect, it } from 'vitest';
import { Deadline } from './deadline.js';
import { DeadlineWheel } from './deadline-wheel.js';

const timeout = () => new Error('timed out');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DeadlineWheel', () => {
  it('expires each deadline at its own time, whatever order they were added in', async () => {
    const wheel = new DeadlineWheel();
    const started = Date.now();
    const late = new Deadline(300, 10_000, timeout, [], wheel);
    const early = new Deadline(60, 10_000, timeout, [], wheel);
    const firedAt = new Map<string, number>();
    early.signal.addEventListener('abort', () => firedAt.set('early', Date.now() - started));
    late.signal.addEventListener('abort', () => firedAt.set('late', Date.now() - started));
    await sleep(400);
    expect(early.expired && late.expired).toBe(true);
    expect(firedAt.get('early')).toBeGreaterThanOrEqual(55);
    expect(firedAt.get('early')).toBeLessThan(250);
    expect(firedAt.get('late')).toBeGreaterThanOrEqual(295);
    expect((early.signal.reason as Error).message).toBe('timed out');
  });

  it('a disposed deadline never fires; one that progress extends fires later', async () => {
    const wheel = new DeadlineWheel();
    const done = new Deadline(50, 10_000, timeout, [], wheel);
    done.dispose();
    const extended = new Deadline(150, 10_000, timeout, [], wheel);
    await sleep(100);
    extended.extend();
    await sleep(100);
    expect(extended.signal.aborted).toBe(false);
    await sleep(150);
    expect(extended.expired).toBe(true);
    expect(done.signal.aborted).toBe(false);
  });

  it('closing aborts every running deadline with its reason, and any added later at once', async () => {
    const wheel = new DeadlineWheel();
    const running = new Deadline(10_000, 10_000, timeout, [], wheel);
    const pending = running.race(new Promise(() => {}));
    const reason = new Error('shut down');
    wheel.close(reason);
    await expect(pending).rejects.toBe(reason);
    expect(running.expired).toBe(false);
    const later = new Deadline(10_000, 10_000, timeout, [], wheel);
    expect(later.signal.reason).toBe(reason);
  });

  it('race rejects with a caller abort even when the attempt ignores the signal', async () => {
    const caller = new AbortController();
    const deadline = new Deadline(10_000, 10_000, timeout, [caller.signal]);
    const pending = deadline.race(new Promise(() => {}));
    caller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    deadline.dispose();
  });
});
