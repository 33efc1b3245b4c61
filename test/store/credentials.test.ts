// Upstream OAuth credentials in the shared store: sealed at rest (AES-256-GCM, bound to their name),
// readable by every replica with the key, and refreshed once across replicas racing to refresh.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthRuntime, performOAuthLogin, SharedTokenStore, oauthStoreKey } from '../../src/mcp-client/oauth/index.js';
import { credentialsKey, openStore, type Store } from '../../src/store/index.js';
import { nullLogger } from '../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { autoApproveBrowser, connect, echo, httpServer } from '../mcp-client/oauth/helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { isMissing } from '../support/system-tags.js';

const skip = isMissing('postgresql');
const KEY = 'k'.repeat(16) + 'random-enough-for-a-test-0123456789';
let server: TestPostgres | undefined;
let dbs = 0;

beforeAll(async () => {
  if (!skip) server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function replicas(n: number, key = KEY, url?: string): Promise<{ stores: Store[]; url: string }> {
  const db = url ?? (await server!.createDatabase(`creds_${++dbs}`));
  const open = () => openStore({ home: '/x', settings: { postgres_url_env_var: 'DB', credentials_key_env_var: 'CREDS_KEY' }, env: { DB: db, CREDS_KEY: key } });
  const first = await open();
  return { stores: [first, ...(await Promise.all(Array.from({ length: n - 1 }, open)))], url: db };
}

function runtimeOn(store: Store): OAuthRuntime {
  const creds = store.credentials!;
  return new OAuthRuntime({ home: null, store: new SharedTokenStore(creds), sharedLock: (k) => creds.lock(k), logger: nullLogger, env: {} });
}

describe('the credentials key', () => {
  it('must be set and long enough, named in the text', () => {
    expect(() => credentialsKey('CREDS_KEY', {})).toThrow('[store] credentials_key_env_var names CREDS_KEY, but that environment variable is not set');
    expect(() => credentialsKey('CREDS_KEY', { CREDS_KEY: 'short' })).toThrow('CREDS_KEY ([store] credentials_key_env_var) must hold at least 32 characters');
    expect(credentialsKey('CREDS_KEY', { CREDS_KEY: KEY })).toHaveLength(32);
  });
});

describe('OAuth credentials in PostgreSQL', { tags: ['postgresql'] }, () => {
  it('are sealed at rest, read by every replica with the key, and refused with a clear text under another key', async () => {
    const { stores, url } = await replicas(2);
    const secret = { tokens: { access_token: 'at-very-secret-value', refresh_token: 'rt-very-secret-value', token_type: 'Bearer' } };
    try {
      await stores[0]!.credentials!.save('docs|abc', secret);
      expect(await stores[1]!.credentials!.load('docs|abc')).toEqual(secret);
      const db = (stores[0] as Store & { db: { query(w: string, q: string): Promise<{ rows: { name: string; sealed: Buffer }[] }> } }).db;
      const { rows } = await db.query('read raw', 'select name, sealed from sb_oauth_credentials');
      expect(rows).toHaveLength(1);
      expect(rows[0]!.sealed.toString('latin1')).not.toContain('very-secret');
      // A row moved to another name does not open: the name is bound to the ciphertext.
      await db.query('copy', `insert into sb_oauth_credentials (name, sealed) select 'other|x', sealed from sb_oauth_credentials`);
      await expect(stores[1]!.credentials!.load('other|x')).rejects.toMatchObject({ code: 'credentials_unreadable' });
      const wrong = await replicas(1, 'another-key-that-is-long-enough-0123456789', url);
      await expect(wrong.stores[0]!.credentials!.load('docs|abc')).rejects.toThrow(/cannot be decrypted: the key in \[store\] credentials_key_env_var differs/);
      await wrong.stores[0]!.close();
      expect(await stores[1]!.credentials!.delete('docs|abc')).toBe(true);
      expect(await stores[0]!.credentials!.load('docs|abc')).toBeUndefined();
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('the refresh lock is held by one replica at a time, and freed when its holder dies', async () => {
    const { stores, url } = await replicas(3);
    try {
      const [a, b, c] = stores.map((s) => s.credentials!) as [NonNullable<Store['credentials']>, NonNullable<Store['credentials']>, NonNullable<Store['credentials']>];
      const order: string[] = [];
      const releaseA = await a.lock('docs');
      const bWaits = b.lock('docs').then((release) => {
        order.push('b');
        return release;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(order).toEqual([]);
      order.push('a done');
      await releaseA();
      const releaseB = await bWaits;
      expect(order).toEqual(['a done', 'b']);
      await releaseB();
      // A replica that dies holding it (its connection drops, as with kill -9) frees it for the others.
      const doomed = new pg.Client({ connectionString: url });
      await doomed.connect();
      doomed.on('error', () => {});
      await doomed.query(`select pg_advisory_lock(hashtextextended('oauth:docs', 0))`);
      const cWaits = c.lock('docs');
      await new Promise((r) => setTimeout(r, 200));
      (doomed as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      await (await cWaits)();
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  describe('a refresh raced by two replicas', { timeout: 60_000 }, () => {
    let fixture: OAuthFixture | undefined;
    afterAll(async () => {
      await fixture?.close();
    });

    it('spends the one-time refresh token once; both replicas end up calling with valid tokens', async () => {
      fixture = await startOAuthFixture({ accessTokenTtlSec: 30, refreshDelayMs: 300 });
      const server = httpServer('docs', fixture.mcpUrl);
      const { stores } = await replicas(2);
      try {
        await performOAuthLogin({ runtime: runtimeOn(stores[0]!), server, print: () => {}, openBrowser: autoApproveBrowser });
        fixture.accessTokenTtlSec = 3600;
        // Both replicas find a token inside the refresh window and refresh at once.
        const runtimes = stores.map(runtimeOn);
        const results = await Promise.all(
          runtimes.map(async (runtime, i) => {
            const { client } = await connect(fixture!.mcpUrl, runtime.authProviderFor(server));
            try {
              return await echo(client, `replica ${i}`);
            } finally {
              await client.close();
            }
          }),
        );
        expect(results).toEqual([expect.stringContaining('replica 0'), expect.stringContaining('replica 1')]);
        expect(fixture.stats.refreshGrants).toBe(1);
        expect(fixture.stats.refreshReuse).toBe(0);
        const stored = (await stores[1]!.credentials!.load(oauthStoreKey('docs', fixture.mcpUrl))) as { tokens?: { refresh_token?: string } };
        expect(stored.tokens?.refresh_token).toBeDefined();
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });
  });
});
