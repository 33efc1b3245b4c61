import { describe, expect, it } from 'vitest';
import { Coalesced } from './coalesced.js';

describe('Coalesced', () => {
  it('runs once more after a run, however many times it was asked meanwhile, and shares that promise', async () => {
    let runs = 0;
    let release!: () => void;
    const work = new Coalesced(async () => {
      runs += 1;
      if (runs === 1) await new Promise<void>((r) => (release = r));
    });
    const first = work.run();
    expect(work.busy).toBe(true);
    const asked = [work.run(), work.run(), work.run()];
    expect(asked.every((p) => p === first)).toBe(true);
    release();
    await first;
    expect(runs).toBe(2);
    expect(work.busy).toBe(false);
    await work.run();
    expect(runs).toBe(3);
  });

  it('a failing run ends the promise with its error and leaves it ready to run again', async () => {
    let fail = true;
    const work = new Coalesced(async () => {
      if (fail) throw new Error('boom');
    });
    await expect(work.run()).rejects.toThrow('boom');
    fail = false;
    await expect(work.run()).resolves.toBeUndefined();
  });
});
