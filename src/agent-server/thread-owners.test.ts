// Thread owners: recorded for token callers only, kept across a restart through the file, and the
// rules' `threads = "all"` and the static token seeing every thread.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Caller } from '../mcp-host/index.js';
import { AccessPolicy, STATIC_CALLER, UNRESTRICTED } from '../mcp-host/access/index.js';
import { FileThreadOwnerStore } from '../store/index.js';
import { ThreadOwners } from './thread-owners.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const caller = (sub: string): Caller => ({ key: `https://as#${sub}`, kind: 'token', subject: sub, clientId: null, scopes: [], claims: { sub } });
const own = new AccessPolicy([]);

describe('thread owners', () => {
  it('keeps owners across a restart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-owners-'));
    dirs.push(dir);
    const file = path.join(dir, 'sessions', 'thread-owners.jsonl');
    await new ThreadOwners(new FileThreadOwnerStore(file)).record('t1', caller('alice'));
    await new ThreadOwners(new FileThreadOwnerStore(file)).record('t2', STATIC_CALLER); // the operator's threads have no owner
    const restarted = new ThreadOwners(new FileThreadOwnerStore(file));
    const alice = caller('alice');
    const bob = caller('bob');
    expect(await restarted.mayContinue('t1', alice, own.viewFor(alice))).toBe(true);
    expect(await restarted.mayContinue('t1', bob, own.viewFor(bob))).toBe(false);
    expect(await restarted.mayContinue('t2', alice, own.viewFor(alice))).toBe(false);
    expect(await restarted.mayContinue('t2', STATIC_CALLER, UNRESTRICTED)).toBe(true);
    expect(await restarted.mayContinue('t1', undefined, UNRESTRICTED)).toBe(true);
    const all = new AccessPolicy([{ allow: ['*'], deny: [], threads: 'all' }]);
    expect(await restarted.mayContinue('t1', bob, all.viewFor(bob))).toBe(true);
  });
});
