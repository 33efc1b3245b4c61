// What [server_auth] keeps, shared by replicas on one PostgreSQL store (each `openStore` is one
// replica): thread owners recorded on one and enforced on another, the per-minute and concurrent-call
// limits holding across replicas (a dead replica's slots freeing themselves), and the audit trail
// written by one replica and read back by another and by `switchboard audit tail`.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/mcp-host/index.js';
import { AccessPolicy, CallerLimits, type AuditRecord } from '../../src/mcp-host/access/index.js';
import { ThreadOwners } from '../../src/agent-server/thread-owners.js';
import { openStore, type Store } from '../../src/store/index.js';
import { runCli } from '../support/cli.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { isMissing } from '../support/system-tags.js';

const skip = isMissing('postgresql');
let server: TestPostgres | undefined;
let url: string;
const opened: Store[] = [];

async function replica(options: { callSlotTtlMs?: number } = {}): Promise<Store> {
  const store = await openStore({ home: '/nonexistent', settings: { postgres_url_env_var: 'DB' }, env: { DB: url }, ...options });
  opened.push(store);
  return store;
}

beforeAll(async () => {
  if (skip) return;
  server = await startPostgres();
  url = await server.createDatabase('server_auth_state');
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await server?.stop();
});

const caller = (sub: string): Caller => ({ key: `https://as#${sub}`, kind: 'token', subject: sub, clientId: `client-${sub}`, scopes: [], claims: { sub } });
const own = new AccessPolicy([]);
const MINUTE = 60_000;

describe('[server_auth] state shared by replicas (PostgreSQL)', { tags: ['postgresql'] }, () => {
  it('knows on every replica who owns a thread: the owner continues it there, another caller is refused', async () => {
    const [a, b] = [await replica(), await replica()];
    const alice = caller('alice');
    const bob = caller('bob');
    await new ThreadOwners(a.threadOwners).record('thread-1', alice);
    const onB = new ThreadOwners(b.threadOwners);
    expect(await onB.mayContinue('thread-1', alice, own.viewFor(alice))).toBe(true);
    expect(await onB.mayContinue('thread-1', bob, own.viewFor(bob))).toBe(false);
    expect(await onB.mayContinue('thread-unknown', alice, own.viewFor(alice))).toBe(false);
    // The first owner stays: a later record for the same thread changes nothing.
    await new ThreadOwners(b.threadOwners).record('thread-1', bob);
    expect(await b.threadOwners.ownerOf('thread-1')).toBe(alice.key);
  });

  it('holds the per-minute limit across replicas, per caller, and opens again the next minute', async () => {
    const [a, b] = [await replica(), await replica()];
    const limitsA = new CallerLimits({ requestsPerMinute: 5 }, a.callerLimits!);
    const limitsB = new CallerLimits({ requestsPerMinute: 5 }, b.callerLimits!);
    const now = Math.floor(Date.now() / MINUTE) * MINUTE + 10_000; // 50 s before the window ends
    const admitted: boolean[] = [];
    for (let i = 0; i < 5; i++) admitted.push((await (i % 2 === 0 ? limitsA : limitsB).admit('rpm-alice', 1, 0, now)).ok);
    expect(admitted).toEqual([true, true, true, true, true]);
    const refused = await limitsB.admit('rpm-alice', 1, 0, now);
    expect(refused).toMatchObject({ ok: false, retryAfterSec: 50 });
    expect(await limitsA.admit('rpm-alice', 1, 0, now + 1000)).toMatchObject({ ok: false, retryAfterSec: 49 });
    expect((await limitsA.admit('rpm-bob', 1, 0, now)).ok).toBe(true);
    expect((await limitsB.admit('rpm-alice', 1, 0, now + MINUTE)).ok).toBe(true);
  });

  it('admits exactly the limit when 50 requests race on two replicas', async () => {
    const [a, b] = [await replica(), await replica()];
    const limits = [new CallerLimits({ requestsPerMinute: 20 }, a.callerLimits!), new CallerLimits({ requestsPerMinute: 20 }, b.callerLimits!)];
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => limits[i % 2]!.admit('race', 1, 0, now)));
    expect(results.filter((r) => r.ok)).toHaveLength(20);
  });

  it('shares concurrent-call slots across replicas; a dead replica’s slots free themselves', async () => {
    const [a, b] = [await replica(), await replica()];
    const limitsA = new CallerLimits({ concurrentCalls: 2 }, a.callerLimits!);
    const limitsB = new CallerLimits({ concurrentCalls: 2 }, b.callerLimits!);
    const first = await limitsA.admit('calls', 1, 1);
    const second = await limitsB.admit('calls', 1, 1);
    expect(first.ok && second.ok).toBe(true);
    expect(await limitsA.admit('calls', 1, 1)).toMatchObject({ ok: false, retryAfterSec: 1 });
    // Racing for the one freed slot: exactly one replica gets it.
    if (first.ok) first.release();
    const race = await Promise.all([limitsA.admit('calls', 1, 1), limitsB.admit('calls', 1, 1), limitsA.admit('calls', 1, 1)]);
    expect(race.filter((r) => r.ok)).toHaveLength(1);
    // Slots still held keep being renewed past their TTL.
    const dying = await replica({ callSlotTtlMs: 600 });
    const limitsC = new CallerLimits({ concurrentCalls: 2 }, dying.callerLimits!);
    expect((await limitsC.admit('dead', 1, 2)).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await limitsA.admit('dead', 1, 1)).ok).toBe(false);
    // The replica dies without releasing (no renewal any more): its slots expire.
    await dying.close();
    await new Promise((r) => setTimeout(r, 800));
    expect((await limitsA.admit('dead', 1, 1)).ok).toBe(true);
  });

  it('writes audit records on one replica that another, and `audit tail`, read back', async () => {
    const [a, b] = [await replica(), await replica()];
    // Recent times: records older than the retention (30 days) are pruned.
    const base = Math.floor(Date.now() / 1000) * 1000 - 10_000;
    const record = (subject: string, n: number, extra: Partial<AuditRecord> = {}): AuditRecord => ({
      time: new Date(base + n * 1000).toISOString(),
      subject,
      client_id: `client-${subject}`,
      method: 'tools/call',
      tool: `pay__echo`,
      upstream: 'pay',
      outcome: 'ok',
      duration_ms: 1.25,
      session: 's-1',
      ...extra,
    });
    const written = [record('alice', 1), record('bob', 2), record('alice', 3, { outcome: 'error', error_code: -32602 })];
    for (const r of written) a.audit!.append(r);
    const initialize: AuditRecord = { time: new Date(base + 4000).toISOString(), subject: null, client_id: null, method: 'initialize', outcome: 'ok', duration_ms: 0.5 };
    a.audit!.append(initialize);
    await a.audit!.flush();
    expect(await b.audit!.tail({ limit: 10 })).toEqual([...written, initialize]);
    expect(await b.audit!.tail({ caller: 'alice', limit: 10 })).toEqual([written[0], written[2]]);
    expect(await b.audit!.tail({ caller: 'client-bob', limit: 10 })).toEqual([written[1]]);
    expect(await b.audit!.tail({ caller: 'alice', limit: 1 })).toEqual([written[2]]);

    // Beyond the retention: never read back.
    a.audit!.append(record('alice', 0, { time: new Date(Date.now() - 31 * 24 * 3600_000).toISOString() }));
    await a.audit!.flush();
    expect(await b.audit!.tail({ caller: 'alice', limit: 10 })).toEqual([written[0], written[2]]);

    const home = await tempDir('sb-audit-store-');
    try {
      await writeFile(path.join(home, 'config.toml'), '[store]\npostgres_url_env_var = "SB_AUDIT_DB"\n');
      const json = await runCli(['audit', 'tail', '--caller', 'alice', '--json'], { home, env: { SB_AUDIT_DB: url } });
      expect(json.code).toBe(0);
      expect(json.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([written[0], written[2]]);
      const human = await runCli(['audit', 'tail', '--caller', 'nobody'], { home, env: { SB_AUDIT_DB: url } });
      expect(human.stderr).toContain('no audit records for nobody in the PostgreSQL store ($SB_AUDIT_DB)');
      const unset = await runCli(['audit', 'tail'], { home, env: {} });
      expect(unset.code).toBe(1);
      expect(unset.stderr).toContain('SB_AUDIT_DB');
    } finally {
      await removeTree(home);
    }
  });
});
