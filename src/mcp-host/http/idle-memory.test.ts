import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sinkLogger } from '../../util/index.js';
import { IDLE_RELEASE_MS, releaseWhenIdle } from './idle-memory.js';

const IDLE_MS = 1_000;

function watched() {
  const released: Record<string, unknown>[] = [];
  const log = sinkLogger(
    (_level, msg, fields) => {
      if (msg.startsWith('idle:')) released.push(fields);
    },
    { level: 'debug' },
  );
  return { log, released };
}

// Fake timers and clock: the spells are exact however loaded the machine is; the collection is real.
describe('releaseWhenIdle', () => {
  let stop: (() => void) | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    stop?.();
    vi.useRealTimers();
  });

  it('collects once a spell of requests has been quiet for the idle time, and not again until the next request', () => {
    const { log, released } = watched();
    const idle = releaseWhenIdle(log, IDLE_MS);
    stop = idle.stop;
    // A fresh host has nothing to give back.
    vi.advanceTimersByTime(IDLE_MS * 3);
    expect(released).toHaveLength(0);
    // Requests arriving more often than the idle time: no collection while they come.
    for (let i = 0; i < 20; i++) {
      idle.seen();
      vi.advanceTimersByTime(IDLE_MS / 2);
    }
    expect(released).toHaveLength(0);
    vi.advanceTimersByTime(IDLE_MS * 1.5);
    expect(released).toHaveLength(1);
    expect(released[0]).toMatchObject({ rssBeforeMb: expect.any(Number), rssAfterMb: expect.any(Number), tookMs: expect.any(Number) });
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(released).toHaveLength(1);
    idle.seen();
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(released).toHaveLength(2);
  });

  it('with the default minute, collects within two checks of 5 s after the last request', () => {
    const { log, released } = watched();
    const idle = releaseWhenIdle(log, IDLE_RELEASE_MS);
    stop = idle.stop;
    idle.seen();
    vi.advanceTimersByTime(IDLE_RELEASE_MS - 1_000);
    expect(released).toHaveLength(0);
    // The bench samples "at rest" 75 s after the last call: the collection must have run by then.
    vi.advanceTimersByTime(1_000 + 2 * 5_000);
    expect(released).toHaveLength(1);
  });

  it('gives no other context a gc global', () => {
    const { log, released } = watched();
    const idle = releaseWhenIdle(log, IDLE_MS);
    stop = idle.stop;
    idle.seen();
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(released).toHaveLength(1);
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });
});
