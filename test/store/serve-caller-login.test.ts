// `switchboard serve --http` acting as each caller by the caller's own login to the upstream, with
// two replicas on one PostgreSQL (the built CLI, the real OAuth fixture as the callers' issuer and as
// the OAuth-protected upstream, a browser played by fetch). A caller without a credential gets a
// URL-mode elicitation (an input-required round in 2026-07-28), signs in, and its call goes on as itself; a client that cannot open URLs
// gets the link in the error; the other replica uses the stored login without a new one; a
// revocation in the store makes the next call on either replica ask again; the credential is sealed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { openStore, type Store } from '../../src/store/index.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { OPENS_URLS, signIn, signsInAs } from '../gateway/caller-harness.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('serve --http: identity = "caller" by the caller\'s own login, two replicas on PostgreSQL', { tags: ['postgresql'] }, () => {
  let db: TestPostgres;
  let fixture: OAuthFixture;
  let home: string;
  let dbUrl: string;
  let store: Store;
  const replicas: ServeProcess[] = [];
  const urls: string[] = [];
  const clients: Client[] = [];
  const browsers: Promise<string>[] = [];

  beforeAll(async () => {
    requireBuild();
    db = await startPostgres();
    dbUrl = await db.createDatabase('caller_login');
    const ports = [await freePort(), await freePort()];
    urls.push(...ports.map((p) => `http://127.0.0.1:${p}/mcp`));
    // The first replica's URL is the public one (the load balancer's): sign-in links and the callback live there.
    fixture = await startOAuthFixture({ jwt: { audience: urls[0]! } });
    home = await tempDir('sb-caller-login-');
    const work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.team]
url = "${fixture.mcpUrl}"
identity = "caller"

[store]
postgres_url_env_var = "SB_DB"
credentials_key_env_var = "SB_KEY"

[server_auth]
issuer = "${fixture.issuer}"
audience = "${urls[0]}"
`,
    );
    const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SB_DB: dbUrl, SB_KEY: KEY };
    for (const port of ports) replicas.push(await spawnServe(['--http', `127.0.0.1:${port}`], { env, cwd: work }));
    store = await openStore({ home, settings: { postgres_url_env_var: 'SB_DB', credentials_key_env_var: 'SB_KEY' }, env });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await Promise.all(replicas.map((r) => r.stop()));
    await store?.close();
    await fixture?.close();
    await db?.stop();
    if (home) await removeTree(home);
  });

  /** A caller's client on `replica`; with `user`, it opens URL elicitations by signing in as that user. */
  async function connect(replica: number, sub: string, user?: string, modern = false): Promise<Client> {
    const token = await fixture.mintAccessToken({ sub, client_id: `cli-${sub}` });
    const client = new Client({ name: 'caller', version: '1.0.0' }, { ...(user ? OPENS_URLS : {}), ...(modern ? { versionNegotiation: { mode: 'auto' as const } } : {}) });
    if (user) signsInAs(client, user, browsers);
    await client.connect(new StreamableHTTPClientTransport(new URL(urls[replica]!), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }
  const call = (c: Client) =>
    c.callTool({ name: 'mcp__team__whoami', arguments: {} }, { timeout: 60_000 }).then(
      (r) => ({ isError: r.isError === true, subject: (r.structuredContent as { subject?: string } | undefined)?.subject, text: JSON.stringify(r.content) }),
      (err: unknown) => ({ isError: true, subject: undefined, text: (err as Error).message }),
    );

  it('asks a caller without a credential to sign in (URL elicitation); the call then goes on as that caller', async () => {
    const alice = await connect(0, 'alice', 'alice');
    const answer = await call(alice);
    expect(await browsers.at(-1)).toMatch(/^200 Signed in to team/);
    expect(answer).toMatchObject({ isError: false, subject: 'alice' });
    expect(await call(alice)).toMatchObject({ isError: false, subject: 'alice' });
    expect(browsers).toHaveLength(1);
  }, 90_000);

  it('asks a 2026-07-28 client in an input-required round; its retry goes on as that caller', async () => {
    const before = browsers.length;
    const carol = await connect(0, 'carol', 'carol', true);
    expect(carol.getProtocolEra()).toBe('modern');
    expect(await call(carol)).toMatchObject({ isError: false, subject: 'carol' });
    expect(browsers).toHaveLength(before + 1);
    expect(await browsers.at(-1)).toMatch(/^200 Signed in to team/);
  }, 90_000);

  it('gives a client that cannot open URLs the link in the error; after signing in, it is itself upstream', async () => {
    const bob = await connect(0, 'bob');
    const refused = await call(bob);
    expect(refused.isError).toBe(true);
    const link = /Open (\S+) to sign in/.exec(refused.text)?.[1];
    expect(link, refused.text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/upstream-login\//);
    expect(await signIn(link!, 'bob')).toMatch(/^200 /);
    expect(await call(bob)).toMatchObject({ isError: false, subject: 'bob' });
    // The link worked once.
    expect((await fetch(link!, { redirect: 'manual' })).status).toBe(410);
  }, 90_000);

  it('lets the other replica act for a caller who signed in through the first, without a new login', async () => {
    const before = browsers.length;
    const alice = await connect(1, 'alice', 'alice');
    expect(await call(alice)).toMatchObject({ isError: false, subject: 'alice' });
    expect(browsers).toHaveLength(before);
  }, 60_000);

  it('keeps the credentials sealed in PostgreSQL', async () => {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      const dump = [];
      // Bytes as text: an unsealed token stored as bytea would show.
      const asText = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v));
      for (const table of ['sb_caller_credentials', 'sb_upstream_logins', 'sb_audit']) for (const row of (await client.query<Record<string, unknown>>(`SELECT * FROM ${table}`)).rows) dump.push(Object.values(row).map(asText).join(' '));
      const text = dump.join('\n');
      expect(text).toContain('#alice');
      expect(text).toContain('caller_login'); // the audit's identity column
      for (const token of fixture.issuedTokens()) expect(text).not.toContain(token);
    } finally {
      await client.end();
    }
    expect((await store.callerCredentials!.list()).map((c) => c.server)).toEqual(['team', 'team', 'team']);
  });

  it('asks again on either replica once the credential is revoked', async () => {
    const caller = (await store.callerCredentials!.list()).find((c) => c.caller.endsWith('#alice'))!.caller;
    expect(await store.callerCredentials!.revoke({ caller })).toBe(1);
    for (const replica of [1, 0]) {
      const before = browsers.length;
      const alice = await connect(replica, 'alice', 'alice');
      expect(await call(alice)).toMatchObject({ isError: false, subject: 'alice' });
      expect(browsers).toHaveLength(before + 1);
      await store.callerCredentials!.revoke({ caller });
    }
  }, 120_000);

  it('asks a caller again once the upstream revoked its login (the refresh is refused)', async () => {
    const dan = await connect(0, 'dan', 'dan');
    expect(await call(dan)).toMatchObject({ isError: false, subject: 'dan' });
    const before = browsers.length;
    fixture.rejectIssuedAccessTokens();
    fixture.refreshMode = 'invalid_grant';
    try {
      const again = await call(dan);
      expect(again, again.text).toMatchObject({ isError: false, subject: 'dan' });
    } finally {
      fixture.refreshMode = 'ok';
    }
    expect(browsers).toHaveLength(before + 1);
    expect(await browsers.at(-1)).toMatch(/^200 Signed in to team/);
  }, 120_000);
});
