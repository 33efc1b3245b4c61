// Per-caller limits over the in-memory store: a minute's requests may come at once and then one per
// 60/N s, with the wait as Retry-After; concurrent calls are slots released when a call ends.
import { describe, expect, it } from 'vitest';
import { CallerLimits, MemoryLimitStore } from './caller-limits.js';

describe('caller limits', () => {
  it('admits requests_per_minute at once, then one every 60/N seconds', async () => {
    const limits = new CallerLimits({ requestsPerMinute: 3 });
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) expect((await limits.admit('a', 1, 0, t)).ok).toBe(true);
    const refused = await limits.admit('a', 1, 0, t);
    expect(refused).toMatchObject({ ok: false, retryAfterSec: 20 });
    expect((await limits.admit('b', 1, 0, t)).ok).toBe(true);
    expect((await limits.admit('a', 1, 0, t + 19_000)).ok).toBe(false);
    expect((await limits.admit('a', 1, 0, t + 20_000)).ok).toBe(true);
  });

  it('counts every request of a batch', async () => {
    const limits = new CallerLimits({ requestsPerMinute: 2 });
    expect((await limits.admit('a', 3, 0, 0)).ok).toBe(false);
  });

  it('holds concurrent call slots until released', async () => {
    const store = new MemoryLimitStore();
    const limits = new CallerLimits({ concurrentCalls: 2 }, store);
    const one = await limits.admit('a', 1, 1);
    const two = await limits.admit('a', 1, 1);
    const three = await limits.admit('a', 1, 1);
    expect([one.ok, two.ok, three.ok]).toEqual([true, true, false]);
    expect(three).toMatchObject({ retryAfterSec: 1, message: expect.stringContaining('run 2 tool calls at once') });
    if (one.ok) one.release();
    if (one.ok) one.release(); // twice is once
    expect((await limits.admit('a', 1, 1)).ok).toBe(true);
    expect((await limits.admit('a', 1, 1)).ok).toBe(false);
  });

  it('gives back the slots of a batch it refuses', async () => {
    const limits = new CallerLimits({ concurrentCalls: 2 });
    expect((await limits.admit('a', 3, 3)).ok).toBe(false);
    expect((await limits.admit('a', 2, 2)).ok).toBe(true);
  });

  it('is inactive without settings', () => {
    expect(new CallerLimits({}).active).toBe(false);
  });
});
