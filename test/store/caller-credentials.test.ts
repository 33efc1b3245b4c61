// Callers' own upstream credentials (identity = "caller") in both stores, one contract: sealed at
// rest and bound to their caller (a record moved to another caller does not open), listed without
// their contents, revoked by caller or server, logins in progress taken once; files are 0600 in a
// 0700 folder, and a second PostgreSQL replica sees a revocation at once.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type CallerCredentialStore, type Store } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { isMissing } from '../support/system-tags.js';
import { removeTree, tempDir } from '../support/temp.js';

const KEY = 'a-caller-credentials-key-long-enough-0123456789';
const SECRET = { tokens: { access_token: 'at-of-alice-very-secret', refresh_token: 'rt-of-alice-very-secret', token_type: 'Bearer' } };
const ALICE = 'https://idp.example#alice';
const BOB = 'https://idp.example#bob';

let pgServer: TestPostgres | undefined;
const homes: string[] = [];
const stores: Store[] = [];

beforeAll(async () => {
  if (!isMissing('postgresql')) pgServer = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await pgServer?.stop();
  await Promise.all(homes.map((h) => removeTree(h)));
});

let dbs = 0;
async function open(kind: 'files' | 'postgres', shared?: { home: string; db?: string }): Promise<{ store: Store; home: string; db?: string }> {
  const home = shared?.home ?? (await tempDir('sb-caller-creds-'));
  if (!shared) homes.push(home);
  const db = kind === 'postgres' ? (shared?.db ?? (await pgServer!.createDatabase(`caller_creds_${++dbs}`))) : undefined;
  const store = await openStore({ home, settings: { postgres_url_env_var: db ? 'DB' : null, credentials_key_env_var: 'KEY' }, env: { KEY, ...(db ? { DB: db } : {}) } });
  stores.push(store);
  return { store, home, ...(db ? { db } : {}) };
}

describe('caller credentials in the file store', () => contract('files'));
describe('caller credentials in PostgreSQL', { tags: ['postgresql'] }, () => contract('postgres'));

function contract(kind: 'files' | 'postgres'): void {
  let first: { store: Store; home: string; db?: string };
  let creds: CallerCredentialStore;

  beforeAll(async () => {
    if (kind === 'postgres' && !pgServer) return;
    first = await open(kind);
    creds = first.store.callerCredentials!;
  });

  it('keeps each caller its own, sealed, listed without contents', async () => {
    await creds.save(ALICE, 'team', 'team|https://team', SECRET);
    expect(await creds.load(ALICE, 'team|https://team')).toEqual(SECRET);
    expect(await creds.load(BOB, 'team|https://team')).toBeUndefined();
    expect(await creds.stamp(ALICE, 'team|https://team')).toEqual(expect.any(String));
    const listed = await creds.list();
    expect(listed.map(({ caller, server }) => ({ caller, server }))).toEqual([{ caller: ALICE, server: 'team' }]);
    expect(JSON.stringify(listed)).not.toContain('very-secret');
  });

  it('is sealed at rest and bound to its caller', async () => {
    if (kind === 'files') {
      const dir = path.join(first.home, 'caller-credentials');
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
      expect(files).toHaveLength(1);
      expect((await stat(path.join(dir, files[0]!))).mode & 0o777).toBe(0o600);
      const raw = await readFile(path.join(dir, files[0]!), 'utf8');
      expect(raw).not.toContain('very-secret');
      expect(Buffer.from((JSON.parse(raw) as { sealed: string }).sealed, 'base64').toString('latin1')).not.toContain('very-secret');
      // Copied to where bob's would be (the file name is a hash of caller and name), it does not open for him.
      const bobs = path.join(dir, `${createHash('sha256').update(`${BOB}\u0000team|https://team`).digest('hex').slice(0, 40)}.json`);
      await writeFile(bobs, raw.replace(JSON.stringify(ALICE), JSON.stringify(BOB)), { mode: 0o600 });
      await expect(creds.load(BOB, 'team|https://team')).rejects.toThrow();
      await rm(bobs);
      return;
    }
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: first.db });
    await client.connect();
    try {
      const { rows } = await client.query<{ sealed: Buffer }>('select sealed from sb_caller_credentials');
      expect(rows).toHaveLength(1);
      expect(rows[0]!.sealed.toString('latin1')).not.toContain('very-secret');
      // Moved to bob, the record does not open for him.
      await client.query(`insert into sb_caller_credentials (caller, name, server, sealed) select $1, name, server, sealed from sb_caller_credentials where caller = $2`, [BOB, ALICE]);
      await expect(creds.load(BOB, 'team|https://team')).rejects.toThrow();
      await client.query('delete from sb_caller_credentials where caller = $1', [BOB]);
    } finally {
      await client.end();
    }
  });

  it('revokes by caller or by server, seen at once by another replica', async () => {
    const other = (await open(kind, { home: first.home, ...(first.db ? { db: first.db } : {}) })).store.callerCredentials!;
    await creds.save(BOB, 'team', 'team|https://team', SECRET);
    await creds.save(BOB, 'wiki', 'wiki|https://wiki', SECRET);
    expect(await other.load(BOB, 'wiki|https://wiki')).toEqual(SECRET);
    expect(await creds.revoke({ caller: BOB, server: 'wiki' })).toBe(1);
    expect(await other.stamp(BOB, 'wiki|https://wiki')).toBeUndefined();
    expect(await creds.revoke({ server: 'team' })).toBe(2);
    expect(await other.list()).toEqual([]);
    expect(await other.load(ALICE, 'team|https://team')).toBeUndefined();
  });

  it('holds one refresh lock per caller credential, one holder at a time', async () => {
    const release = await creds.lock(ALICE, 'team|https://team');
    let second = false;
    const waiting = creds.lock(ALICE, 'team|https://team').then((r) => {
      second = true;
      return r;
    });
    const other = await creds.lock(BOB, 'team|https://team'); // another caller's is free
    await new Promise((r) => setTimeout(r, 100));
    expect(second).toBe(false);
    await release();
    await (await waiting)();
    await other();
    expect(second).toBe(true);
  });

  it('hands a login in progress out once, and not after it expires', async () => {
    await creds.putLogin('new:abc', { caller: ALICE, server: 'team' }, 60_000);
    expect(await creds.takeLogin('new:abc')).toEqual({ caller: ALICE, server: 'team' });
    expect(await creds.takeLogin('new:abc')).toBeUndefined();
    await creds.putLogin('new:old', { caller: ALICE }, 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await creds.takeLogin('new:old')).toBeUndefined();
  });
}
