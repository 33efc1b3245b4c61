// Fuzzing the front door of a protected endpoint (the shared HTTP host with [server_auth], tokens
// from the OAuth fixture): seeded random Authorization headers, character- and segment-level
// mutations of a valid JWT, and forged tokens (alg none, HS256 keyed with the public key, foreign
// keys, wrong claims). No case is accepted, every refusal is a 400/401/403 (431 for an oversized header), no 5xx,
// and the endpoint keeps answering the valid token afterwards.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { HttpHost } from '../../src/mcp-host/index.js';
import { ResourceAuth } from '../../src/mcp-host/http/index.js';
import { nullLogger } from '../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { startEmptyHost } from '../support/empty-host.js';
import { fullRun, sliceTitle } from '../support/long-runs.js';

export const AUTH_FUZZ = { seed: 9_728, headers: 4_000, mutations: 5_000, forgeries: 1_000 } as const;

const AUDIENCE = 'https://fuzz.example.com/mcp';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } } });

let fixture: OAuthFixture;
let host: HttpHost;
let valid: string;
const statuses = new Map<number, number>();

beforeAll(async () => {
  fixture = await startOAuthFixture({ jwt: { audience: AUDIENCE } });
  const auth = new ResourceAuth({ issuer: fixture.issuer, audience: AUDIENCE, requiredScopes: ['mcp'], staticToken: null, logger: nullLogger });
  host = await startEmptyHost({ name: 'fuzz', token: null, auth });
  valid = await fixture.mintAccessToken({ sub: 'fuzzer', scope: 'mcp' });
}, 30_000);
afterAll(async () => {
  await host?.close();
  await fixture?.close();
});

async function send(authorization: string | undefined): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await fetch(host.url, { method: 'POST', headers, body: INIT });
  await res.body?.cancel();
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return res.status;
}

/** The property every fuzzed header must hold: refused with a client error (431 from Node for a header over its limit), never accepted, never a 5xx. */
async function refused(authorization: string | undefined): Promise<void> {
  const status = await send(authorization);
  if (![400, 401, 403, 431].includes(status)) throw new Error(`HTTP ${status} for Authorization: ${JSON.stringify(authorization?.slice(0, 300))}`);
}

async function stillServes(): Promise<void> {
  expect(await send(`Bearer ${valid}`)).toBe(200);
}

/** Header values: nothing, junk, near-misses of the scheme, and the valid token in the wrong shape. */
const header = () =>
  fc.oneof(
    fc.constant(undefined),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }).map((s) => s.replace(/[\r\n\0]/g, '')),
    fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
    fc.constantFrom('Bearer', 'Bearer ', 'bearer', 'Basic dXNlcjpwYXNz', 'Bearer  ', 'Token x', 'Bearer\tx', 'DPoP x'),
    fc.constantFrom('Basic ', 'Bearer  ', 'bearer', 'Bearer\t', 'Token ', '').map((p) => `${p}${valid}`),
    fc.tuple(fc.constantFrom(' ', '  ', ' x', ', Bearer x', '.', '.x', '='), fc.boolean()).map(([extra, before]) => (before ? `Bearer ${extra.trim()}${valid}` : `Bearer ${valid}${extra}`)),
    fc.nat({ max: 20_000 }).map((n) => `Bearer ${'A'.repeat(n)}`),
  ).filter((h) => h === undefined || (!/[\r\n\0]/.test(h) && [...h].every((c) => c.charCodeAt(0) <= 0xff && (c >= ' ' || c === '\t'))) && h.trim() !== `Bearer ${valid}`); // HTTP trims a value's outer whitespace: that is the valid header

/** A valid token changed somewhere: characters replaced, inserted, deleted; segments swapped, dropped, duplicated. */
function mutant() {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ';
  return fc.oneof(
    fc.tuple(fc.nat(), fc.constantFrom(...alphabet)).map(([i, c]) => ({ kind: 'replace', f: (t: string) => t.slice(0, i % t.length) + c + t.slice((i % t.length) + 1) })),
    fc.tuple(fc.nat(), fc.constantFrom(...alphabet)).map(([i, c]) => ({ kind: 'insert', f: (t: string) => t.slice(0, i % t.length) + c + t.slice(i % t.length) })),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 })).map(([i, n]) => ({ kind: 'delete', f: (t: string) => t.slice(0, i % t.length) + t.slice((i % t.length) + n) })),
    fc.constantFrom<[string, (t: string) => string]>(
      ['swap header/payload', (t) => ((p) => [p[1], p[0], p[2]].join('.'))(t.split('.'))],
      ['drop signature', (t) => t.split('.').slice(0, 2).join('.') + '.'],
      ['no signature segment', (t) => t.split('.').slice(0, 2).join('.')],
      ['duplicate payload', (t) => ((p) => [p[0], p[1], p[1]].join('.'))(t.split('.'))],
      ['padding', (t) => `${t}==`],
      ['trailing dot', (t) => `${t}.`],
      ['base64 not base64url', (t) => t.replace(/-/g, '+').replace(/_/g, '/')],
    ).map(([kind, f]) => ({ kind, f })),
  );
}

describe(sliceTitle('fuzzing the protected front door', fullRun ? 3 : 2, 3), () => {
  it(`refuses ${AUTH_FUZZ.headers} random Authorization headers`, async () => {
    await fc.assert(fc.asyncProperty(header(), refused), { seed: AUTH_FUZZ.seed, numRuns: AUTH_FUZZ.headers });
    await stillServes();
  }, 300_000);

  // `npm test` takes the random headers and the forgeries; the whole run adds the mutations.
  if (fullRun) {
    it(`refuses ${AUTH_FUZZ.mutations} mutations of a valid token`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(mutant(), { minLength: 1, maxLength: 3 }), async (ms) => {
          const token = ms.reduce((t, m) => m.f(t), valid);
          if (token === valid) return;
          await refused(`Bearer ${token}`);
        }),
        { seed: AUTH_FUZZ.seed + 1, numRuns: AUTH_FUZZ.mutations },
      );
      await stillServes();
    }, 300_000);
  }

  it(`refuses ${AUTH_FUZZ.forgeries} forged tokens`, async () => {
    const foreign = await generateKeyPair('RS256');
    const kid = fixture.keys!.currentKid;
    const publicJwk = fixture.keys!.jwks().keys.find((k) => k.kid === kid)!;
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = () => Math.floor(Date.now() / 1000);
    const claims = fc.record({
      sub: fc.oneof(fc.constant('fuzzer'), fc.string({ maxLength: 20 })),
      scope: fc.oneof(fc.constant('mcp'), fc.constant('profile'), fc.string({ maxLength: 20 })),
      aud: fc.oneof(fc.constant(AUDIENCE), fc.constant('https://other.example.com'), fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 })),
      exp: fc.oneof(fc.integer({ min: -10_000, max: 10_000 }).map((d) => now() + d), fc.string({ maxLength: 5 }), fc.constant(null)),
    });
    const forge = fc.tuple(claims, fc.constantFrom('none', 'hs256-public-key', 'foreign-key', 'foreign-key-no-kid', 'own-key-wrong-alg-header'));
    await fc.assert(
      fc.asyncProperty(forge, async ([c, how]) => {
        // Claims of any type on purpose (exp as a string, null): jose's types do not allow them.
        const payload = { ...c, iss: fixture.issuer } as unknown as JWTPayload;
        let token: string;
        if (how === 'none') token = `${enc({ alg: 'none', typ: 'JWT' })}.${enc(payload)}.`;
        else if (how === 'hs256-public-key') {
          // The classic confusion attack: HMAC keyed with the issuer's public key.
          token = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid }).sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
        } else if (how === 'own-key-wrong-alg-header') {
          const real = (await fixture.mintAccessToken({ sub: 'fuzzer', scope: 'mcp' })).split('.');
          token = `${enc({ alg: 'RS512', kid })}.${real[1]}.${real[2]}`;
        } else {
          token = await new SignJWT(payload).setProtectedHeader(how === 'foreign-key' ? { alg: 'RS256', kid } : { alg: 'RS256' }).sign(foreign.privateKey);
        }
        await refused(`Bearer ${token}`);
      }),
      { seed: AUTH_FUZZ.seed + 2, numRuns: AUTH_FUZZ.forgeries },
    );
    await stillServes();
  }, 300_000);

  afterAll(() => {
    // Which refusals the runs produced (for docs/reliability.md).
    console.log(`fuzz-auth statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  });
});
