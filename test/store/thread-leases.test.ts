// Thread leases on both stores: one turn per thread. Across replicas (PostgreSQL) a busy thread
// stays busy for every replica, a dead replica's lease expires, and a lost lease is reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalThreadLeases, openStore, type Store } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { isMissing } from '../support/system-tags.js';

const skip = isMissing('postgresql');
let pg: TestPostgres | undefined;
let dbs = 0;
const TTL = 800;

beforeAll(async () => {
  if (!skip) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

async function replicas(n: number): Promise<Store[]> {
  const url = await pg!.createDatabase(`leases_${++dbs}`);
  const open = () => openStore({ home: '/x', settings: { postgres_url_env_var: 'SB_DB' }, env: { SB_DB: url }, leaseTtlMs: TTL });
  const first = await open(); // migrates alone, then the others start
  return [first, ...(await Promise.all(Array.from({ length: n - 1 }, open)))];
}

function whenAborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
}

describe('local leases (the file store)', () => {
  it('one holder per thread, free again after release', async () => {
    const leases = new LocalThreadLeases();
    const [a, b] = await Promise.all([leases.tryAcquire('t'), leases.tryAcquire('t')]);
    expect([a, b].filter((l) => l !== null)).toHaveLength(1);
    expect(leases.isBusy('t')).toBe(true);
    await (a ?? b)!.release();
    expect(leases.isBusy('t')).toBe(false);
    expect(await leases.tryAcquire('t')).not.toBeNull();
  });
});

describe('shared leases (PostgreSQL)', { tags: ['postgresql'] }, () => {
  it('a thread leased on one replica is busy on every replica, in the same process too, until released', async () => {
    const [a, b, c] = await replicas(3);
    try {
      const results = await Promise.all([a!, b!, c!, a!].map((s) => s.leases.tryAcquire('thread-1')));
      expect(results.filter((l) => l !== null)).toHaveLength(1);
      const held = results.find((l) => l !== null)!;
      await held.release();
      const again = await b!.leases.tryAcquire('thread-1');
      expect(again).not.toBeNull();
      expect(await a!.leases.tryAcquire('thread-2')).not.toBeNull(); // other threads are independent
      // Held past several TTLs, it stays held: the replica renews it.
      await new Promise((r) => setTimeout(r, TTL * 3));
      expect(again!.lost.aborted).toBe(false);
      expect(await c!.leases.tryAcquire('thread-1')).toBeNull();
    } finally {
      await Promise.all([a, b, c].map((s) => s!.close()));
    }
  });

  it("a replica that stops renewing (it died) loses the lease after the TTL, and another takes it", async () => {
    const [a, b] = await replicas(2);
    try {
      expect(await a!.leases.tryAcquire('t')).not.toBeNull();
      await a!.close(); // no release, no more renewals: what kill -9 leaves behind
      const died = Date.now();
      expect(await b!.leases.tryAcquire('t')).toBeNull();
      let lease = null;
      while (lease === null) {
        await new Promise((r) => setTimeout(r, 50));
        lease = await b!.leases.tryAcquire('t');
      }
      const waited = Date.now() - died;
      expect(waited).toBeGreaterThanOrEqual(TTL - 100);
      expect(waited).toBeLessThan(TTL + 2_000);
    } finally {
      await b!.close();
    }
  });

  it('a lease that cannot be renewed while the database is down is lost after the TTL; the store works again after', async () => {
    const [a] = await replicas(1);
    try {
      const lease = await a!.leases.tryAcquire('t');
      const lost = whenAborted(lease!.lost);
      await pg!.stopServer();
      try {
        expect(await lost).toMatchObject({ code: 'lease_lost', message: expect.stringContaining('could not be renewed') });
        await expect(a!.leases.tryAcquire('u')).rejects.toMatchObject({ code: 'store_unavailable', message: expect.stringContaining('$SB_DB') });
      } finally {
        await pg!.start();
      }
      expect(await a!.leases.tryAcquire('u')).not.toBeNull();
    } finally {
      await a!.close();
    }
  });
});
