// Which session closes to make room: a caller's own first; another caller's only when that one holds
// the most sessions, so that one caller's many sessions can neither evict nor lock out the others.
import { describe, expect, it } from 'vitest';
import { SessionTable, type TableEntry } from './session-table.js';

const entry = (owner: string | undefined, inFlight = 0): TableEntry => ({ owner, inFlight, listening: 0, lastActive: 0, busy: () => false });

function table(rows: [string, string | undefined, number?][]): SessionTable<TableEntry> {
  const t = new SessionTable<TableEntry>();
  for (const [id, owner, inFlight] of rows) t.add(id, entry(owner, inFlight ?? 0));
  return t;
}

describe('SessionTable.roomFor', () => {
  it("takes the caller's own least recently used idle session while it holds as many as anyone", () => {
    const t = table([['m1', 'mallory'], ['a1', 'alice'], ['m2', 'mallory']]);
    expect(t.roomFor('mallory')).toBe('m1');
  });

  it("never evicts a caller holding fewer sessions for one holding more: mallory with every session busy is refused", () => {
    const t = table([['a1', 'alice'], ['m1', 'mallory', 1], ['m2', 'mallory', 1]]);
    expect(t.roomFor('mallory')).toBeUndefined();
  });

  it('gives a newcomer room from the caller holding the most: an idle session of it first, else its least recently used busy one', () => {
    const idle = table([['m1', 'mallory', 1], ['m2', 'mallory'], ['a1', 'alice']]);
    expect(idle.roomFor('bob')).toBe('m2');
    const allBusy = table([['m1', 'mallory', 1], ['m2', 'mallory', 1], ['a1', 'alice', 1]]);
    expect(allBusy.roomFor('bob')).toBe('m1');
    expect(allBusy.roomFor('alice')).toBe('m1');
  });

  it('treats the sessions of an endpoint without OAuth as one caller', () => {
    const t = table([['s1', undefined, 1], ['s2', undefined]]);
    expect(t.roomFor(undefined)).toBe('s2');
  });
});
