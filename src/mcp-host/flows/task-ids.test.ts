// Task ids: unguessable, naming their replica under an HMAC of the shared key; an altered id or one
// minted under another key is never taken to name a holder.
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
    expect(id).toMatch(/^t1\.[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(await b.holderElsewhere(id)).toBe('http://127.0.0.1:8001');
    expect(await a.holderElsewhere(id)).toBeUndefined();
    expect(await a.mint()).not.toBe(id);
  });

  it('trusts no altered id, no id of another key, and no id without a holder', async () => {
    const a = new TaskIds(shared);
    a.listeningAt('http://127.0.0.1:8001');
    const b = new TaskIds(shared);
    const id = await a.mint();
    const [p, r, , mac] = id.split('.');
    expect(await b.holderElsewhere([p, r, Buffer.from('http://evil:1').toString('base64url'), mac].join('.'))).toBeUndefined();
    expect(await b.holderElsewhere(`${id}x`)).toBeUndefined();
    expect(await new TaskIds(undefined).holderElsewhere(id)).toBeUndefined();
    expect(await b.holderElsewhere(await new TaskIds(shared).mint())).toBeUndefined();
    expect(await b.holderElsewhere('tasks-conformance-nonexistent-12345')).toBeUndefined();
  });
});
