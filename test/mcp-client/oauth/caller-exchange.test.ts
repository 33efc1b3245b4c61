// A caller's exchanged token (`ExchangedToken`) against the real OAuth fixture's token endpoint:
// requests that arrive while an exchange is under way share it, unless the caller has presented a
// new token since it began. Found under load: a connection lost with the caller's expired token was
// still exchanging it when the caller came back with a good one, which joined that exchange and
// failed with its refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../../src/config/index.js';
import { ExchangedToken, exchangeSettings } from '../../../src/mcp-client/oauth/index.js';
import { Secret } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';

const SECRET = 'gateway-secret-for-the-exchange-test';

describe('ExchangedToken', () => {
  let fixture: OAuthFixture;
  /** Token requests wait here until `release()`: an exchange held under way. */
  let held: Promise<void> = Promise.resolve();
  let release = () => {};
  let requests = 0;

  beforeAll(async () => {
    fixture = await startOAuthFixture({ jwt: { audience: 'https://gateway.example.test/mcp' }, preRegistered: { clientId: 'gw', clientSecret: SECRET } });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const provider = () => {
    const server = parseMcpServerConfig('team', {
      url: fixture.mcpUrl,
      identity: 'caller',
      token_exchange: { token_endpoint: `${fixture.issuer}/token`, resource: fixture.mcpUrl, client_id: 'gw', client_secret_env_var: 'GW_SECRET' },
    }).config;
    const fetchHeld: typeof fetch = async (input, init) => {
      requests += 1;
      await held;
      return fetch(input, init);
    };
    const settings = exchangeSettings(server, { GW_SECRET: SECRET }, { fetch: fetchHeld });
    return (token: string) => new ExchangedToken(settings, { key: `${fixture.issuer}#gus`, subject: 'gus', token: new Secret(token) });
  };
  const hold = () => {
    held = new Promise((r) => (release = r));
  };

  it('shares an exchange among requests with the same token', async () => {
    const good = await fixture.mintAccessToken({ sub: 'gus', client_id: 'cli-gus' });
    const token = provider()(good);
    hold();
    requests = 0;
    const both = Promise.all([token.token(), token.token()]);
    release();
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(requests).toBe(1);
    expect(token.exchanges).toBe(1);
  });

  it("does not join an exchange of the caller's older token: the new token gets its own, and its result is kept", async () => {
    const expired = await fixture.mintAccessToken({ sub: 'gus', client_id: 'cli-gus' }, { expiresInSec: -60 });
    const token = provider()(expired);
    hold();
    const old = token.token();
    old.catch(() => {});
    // The caller comes back with a good token while the expired one is still being exchanged.
    token.renew({ key: `${fixture.issuer}#gus`, subject: 'gus', token: new Secret(await fixture.mintAccessToken({ sub: 'gus', client_id: 'cli-gus' })) });
    const fresh = token.token();
    release();
    await expect(old).rejects.toMatchObject({ code: 'auth_required' });
    const issued = await fresh;
    expect(fixture.subjectOf(issued)).toBe('gus');
    // Kept: the next request presents it without exchanging again.
    expect(await token.token()).toBe(issued);
    expect(token.exchanges).toBe(1);
  });
});
