// What [server_auth] adds to each request of an HTTP MCP server, with the issuer's keys cached:
// the front door's check of a JWT access token in-process (a token seen before, and a new token
// whose signature is verified), against the static token's constant-time compare; and a `ping`
// round trip over HTTP with an OAuth token against one with the static token.
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { ResourceAuth } from '../src/mcp-host/http/index.js';
import { nullLogger } from '../src/util/index.js';
import { startOAuthFixture } from '../test/fixtures/oauth-fixture.js';
import { startEmptyHost } from '../test/support/empty-host.js';
import { RawHttpSession } from '../test/support/raw-http-session.js';
import { median, row, type BenchContext, type BenchRow } from './bench-types.js';

const AUDIENCE = 'https://bench.example.com/mcp';
const STATIC = 'a-static-token-for-the-bench-0123456789';
const CHECKS = 20_000;
const NEW_TOKENS = 2_000;
const PINGS = 2_000;

const reqWith = (token: string) => ({ headers: { authorization: `Bearer ${token}`, host: '127.0.0.1' } }) as unknown as http.IncomingMessage;
const res = {} as http.ServerResponse;

async function timeEach(n: number, op: (i: number) => Promise<unknown>): Promise<number[]> {
  const us: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const caller = await op(i);
    us.push((performance.now() - t0) * 1000);
    if (caller === null) throw new Error('the token was refused');
  }
  return us.slice(Math.floor(n / 10)); // the first tenth warms up
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const fixture = await startOAuthFixture({ jwt: { audience: AUDIENCE } });
  const auth = new ResourceAuth({ issuer: fixture.issuer, audience: AUDIENCE, requiredScopes: ['mcp'], staticToken: STATIC, logger: nullLogger });
  try {
    const token = await fixture.mintAccessToken({ sub: 'bench', scope: 'mcp', groups: ['a', 'b'] });
    ctx.log('in-process checks');
    // The first check fetches the metadata and the keys: from then on they are cached.
    if ((await auth.authenticate(reqWith(token), res, '/mcp')) === null) throw new Error('token refused');
    const fresh = await Promise.all(Array.from({ length: NEW_TOKENS }, (_, i) => fixture.mintAccessToken({ sub: `bench-${i}`, scope: 'mcp' })));
    const staticUs = median(await timeEach(CHECKS, () => auth.authenticate(reqWith(STATIC), res, '/mcp')));
    const cachedUs = median(await timeEach(CHECKS, () => auth.authenticate(reqWith(token), res, '/mcp')));
    const newUs = median(await timeEach(NEW_TOKENS, (i) => auth.authenticate(reqWith(fresh[i]!), res, '/mcp')));

    ctx.log('ping over HTTP');
    const host = await startEmptyHost({ name: 'bench', token: STATIC, auth });
    const pingMs = async (bearer: string) => {
      const s = new RawHttpSession(host.url, bearer);
      await s.initialize();
      const ms: number[] = [];
      for (let i = 0; i < PINGS; i++) {
        const t0 = performance.now();
        await s.request('ping');
        ms.push(performance.now() - t0);
      }
      await s.close();
      return median(ms.slice(PINGS / 10));
    };
    let oauthPing: number;
    let staticPing: number;
    try {
      // Alternated twice, so drift in machine load hits both alike.
      const a1 = await pingMs(STATIC);
      const b1 = await pingMs(token);
      const a2 = await pingMs(STATIC);
      const b2 = await pingMs(token);
      staticPing = (a1 + a2) / 2;
      oauthPing = (b1 + b2) / 2;
    } finally {
      await host.close();
    }
    return [
      row('token check p50, a token seen before (cached keys)', cachedUs, 'µs', { baseline: staticUs, notes: `static token compare as baseline; added ${(cachedUs - staticUs).toFixed(1)} µs` }),
      row('token check p50, a new token (signature verified, cached keys)', newUs, 'µs', { baseline: staticUs, notes: 'RS256; once per token, later requests hit the cache' }),
      row('ping over HTTP p50 with an OAuth token', oauthPing, 'ms', { baseline: staticPing, notes: 'baseline: the static token' }),
    ];
  } finally {
    await fixture.close();
  }
}
