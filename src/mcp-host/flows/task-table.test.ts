// The task table of the tasks extension: a caller finds only its own tasks; bounds per caller and in
// total forget the oldest (only those the table may forget); a ttl past a timer's range is held.
import { describe, expect, it } from 'vitest';
import { TaskTable } from './task-table.js';

interface T {
  id: string;
  owner: string;
  done?: boolean;
}

function table(options: { maxPerCaller?: number; maxTasks?: number; evictable?: (t: T) => boolean } = {}) {
  const forgotten: string[] = [];
  const t = new TaskTable<T>({ ...options, forgotten: (task, why) => forgotten.push(`${task.id}: ${why}`) });
  return { t, forgotten };
}

describe('TaskTable', () => {
  it("answers another caller's id as it answers an unknown one", () => {
    const { t } = table();
    t.add({ id: 'a1', owner: 'alice' });
    expect(t.owned('alice', 'a1').id).toBe('a1');
    expect(() => t.owned('bob', 'a1')).toThrow('Task not found: a1');
    expect(() => t.owned('bob', 'zz')).toThrow('Task not found: zz');
    expect(() => t.owned('alice', 42)).toThrow('Task not found: 42');
  });

  it("forgets a caller's oldest tasks past its bound, and no other caller's", () => {
    const { t, forgotten } = table({ maxPerCaller: 2 });
    t.add({ id: 'b1', owner: 'bob' });
    for (const id of ['a1', 'a2', 'a3']) t.add({ id, owner: 'alice' });
    expect(forgotten).toEqual(['a1: its caller holds more than 2 tasks']);
    expect(t.size).toBe(3);
  });

  it('bounds the tasks of all callers together (many callers, each under its own bound)', () => {
    const { t, forgotten } = table({ maxPerCaller: 10, maxTasks: 3 });
    for (let i = 1; i <= 5; i++) t.add({ id: `t${i}`, owner: `caller${i}` });
    expect(t.size).toBe(3);
    expect(forgotten).toEqual(['t1: more than 3 tasks are held', 't2: more than 3 tasks are held']);
    expect(() => t.owned('caller1', 't1')).toThrow('Task not found');
    expect(t.owned('caller5', 't5').id).toBe('t5');
  });

  it('forgets only what it may: running tasks are skipped, finished ones go', () => {
    const { t, forgotten } = table({ maxPerCaller: 2, evictable: (task) => task.done === true });
    t.add({ id: 'r1', owner: 'alice' });
    t.add({ id: 'd1', owner: 'alice', done: true });
    t.add({ id: 'r2', owner: 'alice' });
    expect(forgotten).toEqual(['d1: its caller holds more than 2 tasks']);
    t.add({ id: 'r3', owner: 'alice' });
    expect(t.size).toBe(3);
  });

  it('holds a task whose time is past what a timer can wait, and forgets one whose time is up', async () => {
    const { t, forgotten } = table();
    const long = { id: 'long', owner: 'alice' };
    const short = { id: 'short', owner: 'alice' };
    t.add(long);
    t.add(short);
    t.expireIn(long, 3_000_000_000, 'its ttl passed');
    t.expireIn(short, 5, 'its ttl passed');
    await new Promise((r) => setTimeout(r, 40));
    expect(forgotten).toEqual(['short: its ttl passed']);
    t.close('closing');
    expect(forgotten).toEqual(['short: its ttl passed', 'long: closing']);
  });
});
