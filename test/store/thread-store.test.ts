// One thread-store suite, two backends: files under a temporary $SWITCHBOARD_HOME and a real
// PostgreSQL started for this file. Both must keep the same records, in order, and the same index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileThreadStore, openStore, type Store, type ThreadStore } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { tempDir, removeTree } from '../support/temp.js';
import type { ComponentId } from '../support/system-components.js';
import { isMissing } from '../support/system-tags.js';

interface Backend {
  name: string;
  /** The system components its tests need. */
  tags: ComponentId[];
  open(): Promise<{ threads: ThreadStore; reopen(): Promise<ThreadStore>; close(): Promise<void> }>;
}

let pg: TestPostgres | undefined;
let databases = 0;
const pgSkip = isMissing('postgresql');

beforeAll(async () => {
  if (!pgSkip) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

const BACKENDS: Backend[] = [
  {
    name: 'files',
    tags: [],
    async open() {
      const home = await tempDir('sb-store-');
      return { threads: new FileThreadStore(home), reopen: async () => new FileThreadStore(home), close: () => removeTree(home) };
    },
  },
  {
    name: 'postgres',
    tags: ['postgresql'],
    async open() {
      const url = await pg!.createDatabase(`threads_${++databases}`);
      const env = { SB_TEST_DB: url };
      const open = (): Promise<Store> => openStore({ home: '/nonexistent', settings: { postgres_url_env_var: 'SB_TEST_DB' }, env });
      const stores: Store[] = [await open()];
      return {
        threads: stores[0]!.threads,
        // A second pool on the same database: what another replica sees.
        reopen: async () => {
          const s = await open();
          stores.push(s);
          return s.threads;
        },
        close: async () => void (await Promise.all(stores.map((s) => s.close()))),
      };
    },
  },
];

const rec = (n: number, extra: Record<string, unknown> = {}) => JSON.stringify({ timestamp: `2026-01-01T00:00:0${n % 10}Z`, type: 'event_msg', payload: { type: 'warning', n, ...extra } });
const meta = (id: string) => JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id } });
let ids = 0;
const newId = () => `0190abcd-0000-7000-8000-${String(++ids).padStart(12, '0')}`;

for (const backend of BACKENDS) describe(`thread store: ${backend.name}`, { tags: backend.tags }, () => {
  let env: Awaited<ReturnType<Backend['open']>>;
  beforeAll(async () => {
    env = await backend.open();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('keeps the first record and appended ones, byte for byte and in order', async () => {
    const id = newId();
    const log = await env.threads.create(id, new Date('2026-01-01T00:00:00Z'), meta(id));
    await log.append([rec(1), rec(2, { text: 'ünïcødé ✓ "quoted"\\n' })]);
    await log.append([]);
    await log.append([rec(3)]);
    await log.close();
    const stored = await env.threads.load(id);
    expect(stored).not.toBeNull();
    expect(stored!.text).toBe([meta(id), rec(1), rec(2, { text: 'ünïcødé ✓ "quoted"\\n' }), rec(3)].map((r) => `${r}\n`).join(''));
    expect(stored!.records).toBe(4);
    expect(stored!.location).toBe(log.location);
  });

  it('a reopened log appends after what is there, seen by another instance of the store', async () => {
    const id = newId();
    await (await env.threads.create(id, new Date(), meta(id))).close();
    const other = await env.reopen();
    const loaded = await other.load(id);
    const log = await loaded!.reopen(null);
    await log.append([rec(1)]);
    await log.close();
    const again = await env.threads.load(id);
    expect(again!.text.trim().split('\n')).toEqual([meta(id), rec(1)]);
  });

  it('an unknown or malformed id loads as null; a taken id cannot be created twice', async () => {
    expect(await env.threads.load(newId())).toBeNull();
    expect(await env.threads.load('../../etc/passwd')).toBeNull();
    const id = newId();
    await (await env.threads.create(id, new Date(), meta(id))).close();
    await expect(env.threads.create(id, new Date(), meta(id))).rejects.toMatchObject({ code: 'thread_exists' });
    expect((await env.threads.load(id))!.records).toBe(1);
  });

  it('the index lists threads newest first, with their locations', async () => {
    const older = newId();
    const newer = newId();
    await (await env.threads.create(older, new Date('2030-01-01T10:00:00Z'), meta(older))).close();
    await (await env.threads.create(newer, new Date('2030-01-02T10:00:00Z'), meta(newer))).close();
    const top = await env.threads.list({ limit: 2 });
    expect(top.map((t) => t.id)).toEqual([newer, older]);
    expect(top[0]!.createdAt.toISOString()).toBe('2030-01-02T10:00:00.000Z');
    expect(top[0]!.location).toBe((await env.threads.load(newer))!.location);
  });

  it('many appends in a row, large and small, come back complete', async () => {
    const id = newId();
    const log = await env.threads.create(id, new Date(), meta(id));
    const big = rec(0, { text: 'x'.repeat(1_000_000) });
    const expected = [meta(id)];
    for (let i = 0; i < 50; i += 1) {
      const batch = i === 25 ? [big] : [rec(i), rec(i + 1)];
      expected.push(...batch);
      await log.append(batch);
    }
    await log.close();
    const stored = await env.threads.load(id);
    expect(stored!.text).toBe(expected.map((r) => `${r}\n`).join(''));
  });
});

describe('postgres store start-up', { tags: ['postgresql'] }, () => {
  it('fails fast, naming the variable, when the database cannot be reached or the variable is unset', async () => {
    const settings = { postgres_url_env_var: 'SB_TEST_DB' };
    await expect(openStore({ home: '/x', settings, env: {} })).rejects.toMatchObject({
      code: 'store_not_configured',
      message: expect.stringContaining('names SB_TEST_DB, but that environment variable is not set'),
    });
    const closedPort = `postgres://postgres@127.0.0.1:1/postgres`;
    const started = Date.now();
    await expect(openStore({ home: '/x', settings, env: { SB_TEST_DB: closedPort } })).rejects.toMatchObject({
      code: 'store_unreachable',
      message: expect.stringMatching(/^cannot reach the PostgreSQL store at \$SB_TEST_DB \(\[store\] postgres_url_env_var\): .*ECONNREFUSED/),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('applies the migrations once, even when replicas start together', async () => {
    const url = await pg!.createDatabase(`migrations_${++databases}`);
    const env = { SB_TEST_DB: url };
    const stores = await Promise.all([1, 2, 3].map(() => openStore({ home: '/x', settings: { postgres_url_env_var: 'SB_TEST_DB' }, env })));
    try {
      const first = stores[0]!;
      if (first.kind !== 'postgres') throw new Error('expected the postgres store');
      const { db } = first as Store & { db: { query(what: string, sql: string): Promise<{ rows: { version: number }[] }> } };
      const { rows } = await db.query('read migrations', 'select version from sb_schema_migrations order by version');
      expect(rows.map((r) => r.version)).toEqual([...new Set(rows.map((r) => r.version))]);
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});

describe('shared secrets', { tags: ['postgresql'] }, () => {
  it('every replica gets the secret the first one created', async () => {
    const url = await pg!.createDatabase(`secrets_${++databases}`);
    const stores = await Promise.all([1, 2, 3].map(() => openStore({ home: '/x', settings: { postgres_url_env_var: 'SB_TEST_DB' }, env: { SB_TEST_DB: url } })));
    try {
      const keys = await Promise.all(stores.map((s) => s.sharedSecret('request-state-key')!));
      expect(keys[0]!.length).toBe(32);
      expect(keys.every((k) => k.equals(keys[0]!))).toBe(true);
      expect((await stores[1]!.sharedSecret('other')!).equals(keys[0]!)).toBe(false);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
