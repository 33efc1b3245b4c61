// The gateway's table of 2026-07-28 tasks: how long a task is kept whatever ttl its upstream names.
import { describe, expect, it } from 'vitest';
import { nullLogger } from '../util/index.js';
import { ModernTasks } from './modern-tasks.js';

describe('ModernTasks', () => {
  it('keeps a task whose upstream names a ttl longer than a timer can hold (not forgotten at once)', async () => {
    const tasks = new ModernTasks(nullLogger, () => undefined);
    // 2^31 ms and more overflow Node's timers, which then fire after 1 ms.
    const task = await tasks.created('alice', 'up', 'u1', undefined, 3_000_000_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(tasks.owned('alice', task.id)).toBe(task);
    tasks.close();
  });
});
