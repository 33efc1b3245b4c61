// Task ids: unguessable, carrying their replica sealed under the shared key (readable by no one else);
// an altered id or one minted under another key is never taken to name a holder.
import { describe, expect, it } from 'vitest';
import { TaskIds } from './task-ids.js';

const shared = { key: async () => new Uint8Array(32).fill(7) };

describe('TaskIds', () => {
  it('names the replica that minted an id to the others sharing its key, and not to itself', async () => {
    const a = new TaskIds(shared);
    const b = new TaskIds(shared);
    a.listeningAt('http://127.0.0.1:8001');
    b.listeningAt('http://127.0.0.1:8002');
    const id = await a.mint();
    expect(id).toMatch(/^t2\.[A-Za-z0-9_-]+$/);
    expect(await b.holderElsewhere(id)).toBe('http://127.0.0.1:8001');
    expect(await a.holderElsewhere(id)).toBeUndefined();
    expect(await a.mint()).not.toBe(id);
  });

  it('reveals nothing of its holder: the address is in no decoding of the id', async () => {
    const a = new TaskIds(shared);
    a.listeningAt('http://127.0.0.1:8001');
    const id = await a.mint();
    for (const encoding of ['base64url', 'base64', 'hex'] as const) {
      expect(Buffer.from(id.slice(3), encoding).toString('latin1')).not.toContain('127.0.0.1');
    }
    expect(id).not.toContain(Buffer.from('http://127.0.0.1:8001').toString('base64url').slice(0, 12));
  });

  it('trusts no altered id, no id of another key, and no id without a holder', async () => {
    const a = new TaskIds(shared);
    a.listeningAt('http://127.0.0.1:8001');
    const b = new TaskIds(shared);
    const id = await a.mint();
    const flipped = `${id.slice(0, 10)}${id[10] === 'A' ? 'B' : 'A'}${id.slice(11)}`;
    expect(await b.holderElsewhere(flipped)).toBeUndefined();
    expect(await b.holderElsewhere(`${id}x`)).toBeUndefined();
    expect(await new TaskIds(undefined).holderElsewhere(id)).toBeUndefined();
    expect(await b.holderElsewhere(await new TaskIds(shared).mint())).toBeUndefined();
    expect(await b.holderElsewhere('tasks-conformance-nonexistent-12345')).toBeUndefined();
  });
});
