// The fault matrix's rows for the front door of a protected gateway (`serve --http` with
// [server_auth]): the authorization server goes down, or its JWKS starts serving garbage. The
// subject is the built CLI with one healthy upstream; the "healthy calls" are calls with a token
// signed by a key the gateway already holds, made all through the outage (they must keep working).
// A token signed by a key it has never seen must get a clear error (503, saying why), not a crash.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { spawnServe } from '../gateway/serve-process.js';
import { removeTree, tempDir } from '../support/temp.js';
import { CHAOS, NODE } from './fault-cases.js';
import type { MatrixRow } from './fault-matrix-report.js';

export interface AuthRun {
  /** Status and body of a request carrying a token signed by a key the gateway has not seen. */
  newKey: { status: number; retryAfter: string | null; body: { error?: string; error_description?: string } };
  healthy: { ok: boolean; detail: string }[];
}

export interface AuthFaultCase {
  id: string;
  outage: 'down' | 'garbage-jwks';
  outcome: string;
  verify(run: AuthRun, fixture: OAuthFixture): void;
}

const UNKNOWN_KEY = /^the token is signed by a key \(kid k-[0-9a-f]+\) this server does not know, and the signing keys of http:\/\/127\.0\.0\.1:\d+ cannot be fetched: /;

export const AUTH_FAULT_CASES: AuthFaultCase[] = [
  {
    id: 'http/authorization server down',
    outage: 'down',
    outcome: 'tokens signed by keys already fetched keep working; a token signed by a new key gets 503 temporarily_unavailable (Retry-After: 30): "… signing keys of <issuer> cannot be fetched: fetch failed (…)"',
    verify(run) {
      expect(run.newKey).toMatchObject({ status: 503, retryAfter: '30', body: { error: 'temporarily_unavailable', error_description: expect.stringMatching(UNKNOWN_KEY) } });
      expect(run.newKey.body.error_description).toMatch(/fetch failed/);
    },
  },
  {
    id: 'http/JWKS serves garbage',
    outage: 'garbage-jwks',
    outcome: 'the garbage never replaces the keys held: their tokens keep working; a token signed by a new key gets 503: "… cannot be fetched: <jwks_uri> did not return a JSON Web Key Set"',
    verify(run) {
      expect(run.newKey).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable', error_description: expect.stringMatching(UNKNOWN_KEY) } });
      expect(run.newKey.body.error_description).toMatch(/\/jwks did not return a JSON Web Key Set \(\{"keys": \[\.\.\.\]\}\)$/);
    },
  },
];

/** One row: the gateway up with a healthy upstream, a caller working, then the outage. */
export async function runAuthCase(c: AuthFaultCase, marker: string): Promise<MatrixRow> {
  const started = performance.now();
  const port = await freePort();
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const fixture = await startOAuthFixture({ jwt: { audience: mcpUrl } });
  const home = await tempDir('sb-fault-auth-');
  const work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(
    path.join(home, 'config.toml'),
    `[mcp_servers.good]\ncommand = ${JSON.stringify(NODE)}\nargs = [${JSON.stringify(CHAOS)}, "--marker", "${marker}"]\n\n[server_auth]\nissuer = "${fixture.issuer}"\naudience = "${mcpUrl}"\n`,
  );
  const serve = await spawnServe(['--http', `127.0.0.1:${port}`], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: work });
  const client = new Client({ name: 'fault-auth', version: '1.0.0' });
  const healthy: AuthRun['healthy'] = [];
  let run: AuthRun;
  try {
    const token = await fixture.mintAccessToken({ sub: 'steady' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const echo = async (text: string) => {
      try {
        const r = await client.callTool({ name: 'mcp__good__echo', arguments: { text } });
        const got = (r.content as { text: string }[])[0]?.text;
        healthy.push(got === text ? { ok: true, detail: '' } : { ok: false, detail: JSON.stringify(r) });
      } catch (err) {
        healthy.push({ ok: false, detail: String(err) });
      }
    };
    await echo('before');
    fixture.outage = c.outage;
    // A fresh token of the same key: checked against the held keys, no fetch needed.
    const fresh = new Client({ name: 'fault-auth-fresh', version: '1.0.0' });
    await fresh.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${await fixture.mintAccessToken({ sub: 'fresh' })}` } } }));
    await fresh.close();
    for (let i = 0; i < 10; i++) await echo(`during ${i}`);
    await fixture.keys!.rotate();
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${await fixture.mintAccessToken({ sub: 'newcomer' })}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    run = { newKey: { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as AuthRun['newKey']['body'] }, healthy };
    await echo('after');
    fixture.outage = 'none';
  } finally {
    await client.close().catch(() => {});
    await serve.stop();
    await fixture.close();
    await removeTree(home);
  }
  c.verify(run, fixture);
  expect(healthy.filter((h) => !h.ok)).toEqual([]);
  return {
    subject: 'gateway (OAuth)',
    id: c.id,
    transport: 'http',
    outcome: c.outcome,
    startup: 'ready',
    calls: [`error: HTTP ${run.newKey.status} ${run.newKey.body.error}: ${run.newKey.body.error_description?.slice(0, 160) ?? ''}`],
    notes: [],
    statusLines: 0,
    healthyCalls: healthy.length,
    healthyFailures: healthy.filter((h) => !h.ok).length,
    healthySlowestMs: 0,
    leftoverProcesses: 0,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
