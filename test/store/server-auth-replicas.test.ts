// Two replicas of `switchboard serve --http` (the built CLI) on one PostgreSQL store with
// [server_auth] limits: a caller's requests per minute are one budget across both, and each replica's
// audit records land in the store, where `switchboard audit tail` reads them (never the arguments).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../support/mcp-server-harness.js';
import { runCli } from '../support/cli.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';

const PER_MINUTE = 6;

describe('serve --http replicas sharing [server_auth] limits and the audit trail (PostgreSQL)', { tags: ['postgresql'] }, () => {
  let pg: TestPostgres;
  let fixture: OAuthFixture;
  let home: string;
  let dbUrl: string;
  const replicas: ServeProcess[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    requireBuild();
    pg = await startPostgres();
    dbUrl = await pg.createDatabase('serve_replicas');
    const ports = [await freePort(), await freePort()];
    urls.push(...ports.map((p) => `http://127.0.0.1:${p}/mcp`));
    // Both replicas are one resource behind a load balancer: one audience.
    const audience = 'https://mcp.example.test/mcp';
    fixture = await startOAuthFixture({ jwt: { audience } });
    home = await tempDir('sb-serve-replicas-');
    const work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.pay]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "pay" }\n
[store]
postgres_url_env_var = "SB_REPLICA_DB"

[server_auth]
issuer = "${fixture.issuer}"
audience = "${audience}"
limits = { requests_per_minute = ${PER_MINUTE} }
`,
    );
    const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SB_REPLICA_DB: dbUrl };
    for (const port of ports) replicas.push(await spawnServe(['--http', `127.0.0.1:${port}`], { env, cwd: work }));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await fixture?.close();
    await pg?.stop();
    if (home) await removeTree(home);
  });

  it('holds one caller’s requests per minute across both replicas and audits both in the store', async () => {
    // The limit is a window per minute: start where the test cannot straddle two of them.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 61_000 - intoMinute));
    const token = await fixture.mintAccessToken({ sub: 'alice', client_id: 'cli-a' });
    const sessions = urls.map((u) => new RawHttpSession(u, token));
    for (const s of sessions) await s.initialize(); // two of the minute's requests, one per replica
    const statuses: number[] = [];
    for (let n = 1; n <= PER_MINUTE; n++) {
      const s = sessions[n % 2]!;
      const res = await s.post({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'mcp__pay__echo', arguments: { text: `secret-argument-${n}` } } });
      statuses.push(res.status);
      if (res.status === 200) await s.responseOn(res, n);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // Another caller has its own budget on either replica.
    const bob = new RawHttpSession(urls[1]!, await fixture.mintAccessToken({ sub: 'bob' }));
    await bob.initialize();

    let tail = { code: 0, stdout: '', stderr: '' };
    // Records are written in batches shortly after the request: wait for them.
    for (let i = 0; i < 50; i++) {
      tail = await runCli(['audit', 'tail', '--caller', 'alice', '--json', '-n', '50'], { home, env: { SB_REPLICA_DB: dbUrl } });
      if (tail.stdout.trim().split('\n').length >= PER_MINUTE + 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(tail.code).toBe(0);
    const records = tail.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.filter((r) => r.method === 'initialize')).toHaveLength(2);
    const calls = records.filter((r) => r.method === 'tools/call');
    expect(calls.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok', 'ok', 'rate_limited', 'rate_limited']);
    expect(calls[0]).toMatchObject({ subject: 'alice', client_id: 'cli-a', tool: 'mcp__pay__echo' });
    // (A replica's first call may arrive before its upstream's catalog, which names the upstream.)
    for (const c of calls.slice(2, 4)) expect(c).toMatchObject({ subject: 'alice', client_id: 'cli-a', tool: 'mcp__pay__echo', upstream: 'pay' });
    // Both replicas wrote: the sessions differ.
    expect(new Set(records.filter((r) => r.outcome === 'ok').map((r) => r.session)).size).toBe(2);
    expect(tail.stdout).not.toContain('secret-argument');
  }, 120_000);
});
