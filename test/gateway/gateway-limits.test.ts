// [server_auth.limits] of `switchboard serve --http` under 50 concurrent callers (each its own token
// subject, from the OAuth fixture): each caller gets exactly its requests per minute and its
// concurrent calls, the rest are refused with 429, a clear error and Retry-After, and one caller's
// budget never touches another's.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../support/mcp-server-harness.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { UPSTREAM_FIXTURE } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const CALLERS = 50;
const PER_MINUTE = 6;
const CONCURRENT = 2;

describe('switchboard serve --http: per-caller limits', () => {
  let fixture: OAuthFixture;
  let serve: ServeProcess;
  let home: string;
  let mcpUrl: string;

  beforeAll(async () => {
    requireBuild();
    const port = await freePort();
    mcpUrl = `http://127.0.0.1:${port}/mcp`;
    fixture = await startOAuthFixture({ jwt: { audience: mcpUrl } });
    home = await tempDir('sb-gateway-limits-');
    const work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.pay]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "pay" }\n
[server_auth]
issuer = "${fixture.issuer}"
audience = "${mcpUrl}"
limits = { requests_per_minute = ${PER_MINUTE}, concurrent_calls = ${CONCURRENT} }
`,
    );
    serve = await spawnServe(['--http', `127.0.0.1:${port}`], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: work });
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  async function caller(sub: string): Promise<RawHttpSession> {
    const session = new RawHttpSession(mcpUrl, await fixture.mintAccessToken({ sub }));
    await session.initialize(); // initialize: one request (notifications are not counted)
    return session;
  }

  const call = (s: RawHttpSession, id: number, name: string, args: Record<string, unknown>) => s.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  it(`gives each of ${CALLERS} concurrent callers exactly ${PER_MINUTE} requests per minute`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: CALLERS }, async (_, i) => {
        const s = await caller(`rate-${i}`);
        const statuses: number[] = [];
        let refusal: { retryAfter: string | null; body: unknown } | undefined;
        for (let n = 1; n <= PER_MINUTE + 2; n++) {
          const res = await call(s, n, 'mcp__pay__echo', { text: `${i}-${n}` });
          statuses.push(res.status);
          if (res.status === 429) refusal ??= { retryAfter: res.headers.get('retry-after'), body: await res.json() };
          else await s.responseOn(res, n);
        }
        return { statuses, refusal };
      }),
    );
    for (const { statuses, refusal } of outcomes) {
      // initialize took one of the minute's requests.
      expect(statuses).toEqual([...Array<number>(PER_MINUTE - 1).fill(200), 429, 429, 429]);
      expect(Number(refusal!.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refusal!.retryAfter)).toBeLessThanOrEqual(10);
      expect(refusal!.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringMatching(/^Too many requests: this caller may send 6 requests per minute \(\[server_auth\.limits\] requests_per_minute\); retry in \d+ s$/) },
      });
    }
  }, 120_000);

  it(`lets each of ${CALLERS} concurrent callers run ${CONCURRENT} calls at once, no more`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: CALLERS }, async (_, i) => {
        const s = await caller(`calls-${i}`);
        // Three calls at once that each take 3 s: the third arrives while two run.
        const responses = await Promise.all([1, 2, 3].map((n) => call(s, n, 'mcp__pay__slow', { ms: 3000 })));
        const statuses = responses.map((r) => r.status);
        const refused = responses.find((r) => r.status === 429);
        const body = refused ? await refused.json() : undefined;
        const answers = await Promise.all(responses.map((r, k) => (r.status === 200 ? s.responseOn(r, k + 1) : undefined)));
        // Once they are done, the slots are free again.
        const after = await call(s, 4, 'mcp__pay__echo', { text: 'after' });
        return { statuses, body, retryAfter: refused?.headers.get('retry-after'), answers, after: after.status };
      }),
    );
    for (const o of outcomes) {
      expect(o.statuses.filter((s) => s === 200)).toHaveLength(CONCURRENT);
      expect(o.statuses.filter((s) => s === 429)).toHaveLength(1);
      expect(o.retryAfter).toBe('1');
      expect(o.body).toMatchObject({ error: { message: 'Too many concurrent calls: this caller may run 2 tool calls at once ([server_auth.limits] concurrent_calls); retry when one has finished' } });
      expect(o.answers.filter(Boolean).map((a) => (a as { result: { content: unknown } }).result.content)).toEqual([
        [{ type: 'text', text: 'pay:slow 3000' }],
        [{ type: 'text', text: 'pay:slow 3000' }],
      ]);
      expect(o.after).toBe(200);
    }
  }, 120_000);
});
