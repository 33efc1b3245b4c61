// JWT checks against a real authorization server (the OAuth fixture): the clock skew on exp and nbf,
// audiences as arrays, the per-token cache and what voids it (a retired key), the held keys while the
// server is down, and the 503-worthy error for a key that cannot be fetched.
import { OAuthError } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nullLogger } from '../../util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../../test/fixtures/oauth-fixture.js';
import { callerOf } from '../access/caller.js';
import { KeysUnavailableError } from './issuer-keys.js';
import { JwtVerifier } from './jwt-verifier.js';

const AUDIENCE = 'https://unit.example.com/mcp';
let fixture: OAuthFixture;
let verifier: JwtVerifier;

beforeEach(async () => {
  fixture = await startOAuthFixture({ jwt: { audience: AUDIENCE } });
  verifier = new JwtVerifier({ issuer: fixture.issuer, audience: AUDIENCE, clockSkewSec: 30, logger: nullLogger });
});
afterEach(() => fixture.close());

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: unknown) => (err instanceof OAuthError ? `${err.code}: ${err.message}` : err instanceof KeysUnavailableError ? `unavailable: ${err.message}` : String(err)),
  );

describe('JWT access tokens', () => {
  it('gives the caller of a valid token, with expiresAt past exp by the skew', async () => {
    const token = await fixture.mintAccessToken({ sub: 'u1', scope: 'a b', azp: 'app' }, { expiresInSec: 100 });
    const info = await verifier.verify(token);
    expect(callerOf(info)).toMatchObject({ subject: 'u1', clientId: 'app', scopes: ['a', 'b'], key: `${fixture.issuer}#u1` });
    expect(info.token).toBe('');
    expect(info.expiresAt! - Date.now() / 1000).toBeGreaterThan(125);
  });

  it('applies the clock skew to exp and nbf', async () => {
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'u' }, { expiresInSec: -20 })))).toBe('accepted');
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'u' }, { expiresInSec: -40 })))).toBe('invalid_token: The access token has expired');
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'u' }, { notBeforeInSec: 20 })))).toBe('accepted');
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'u' }, { notBeforeInSec: 60 })))).toBe('invalid_token: The access token is not valid yet');
  });

  it('accepts an audience array that holds the resource', async () => {
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'u' }, { audience: ['account', AUDIENCE] })))).toBe('accepted');
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'u' }, { audience: ['account'] })))).toBe('invalid_token: The access token was not issued for this resource (audience)');
  });

  it('refuses what is not a canonical JWT', async () => {
    const token = await fixture.mintAccessToken({ sub: 'u' });
    for (const bad of ['x', `${token}.`, token.replace(/\.[^.]+$/, '.'), `${token}=`, 'a.b.c']) {
      expect(await refusal(verifier.verify(bad))).toMatch(/^invalid_token: /);
    }
  });

  it('remembers a token until its key is retired', async () => {
    const oldKid = fixture.keys!.currentKid;
    const token = await fixture.mintAccessToken({ sub: 'u' });
    await verifier.verify(token);
    const fetches = () => fixture.requestsTo('/jwks').length;
    const before = fetches();
    await verifier.verify(token);
    expect(fetches()).toBe(before);
    await fixture.keys!.rotate();
    fixture.keys!.retire(oldKid);
    await verifier.verify(await fixture.mintAccessToken({ sub: 'v' })); // the new kid: fetched again
    expect(fetches()).toBe(before + 1);
    expect(await refusal(verifier.verify(token))).toBe('invalid_token: The access token is signed by a key the issuer does not publish');
  });

  it('keeps the held keys while the server is down, and says why a new key cannot be used', async () => {
    const held = await fixture.mintAccessToken({ sub: 'u' });
    await verifier.verify(held);
    fixture.outage = 'down';
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'w' })))).toBe('accepted');
    await fixture.keys!.rotate();
    const outcome = await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'x' })));
    expect(outcome).toMatch(new RegExp(`^unavailable: the token is signed by a key \\(kid k-[0-9a-f]+\\) this server does not know, and the signing keys of ${fixture.issuer} cannot be fetched: fetch failed`));
    // Within the cooldown the same answer comes without another fetch.
    expect(await refusal(verifier.verify(await fixture.mintAccessToken({ sub: 'y' })))).toMatch(/^unavailable: /);
    fixture.outage = 'none';
  });
});
