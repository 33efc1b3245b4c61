// DPoP (RFC 9449) through `switchboard mcp call` / `mcp login` against the OAuth fixture: tokens bound
// to the server's key pair, kept with the credentials so the next process (and a refresh) signs with
// the same key, and the server's nonce honoured at the token endpoint and at the MCP server, retried once.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, FIXTURES, type CliResult } from '../../support/cli.js';
import type { OAuthFixture, OAuthFixtureOptions } from '../../fixtures/oauth-fixture.js';
import { credentialsFileEntries, expireStoredTokens, oauthCliHome, type OAuthCliHome } from './helpers.js';

let current: OAuthCliHome | undefined;
let home = '';

afterEach(async () => {
  await current?.close();
  current = undefined;
});

const ENV = { SVC_SECRET: 's3cret', BROWSER: path.join(FIXTURES, 'fake-browser.mjs'), PATH: process.env.PATH };

/** `oauth` holds the lines of `[mcp_servers.svc.oauth]`. */
async function setup(fixtureOptions: OAuthFixtureOptions, oauth: string[]): Promise<OAuthFixture> {
  current = await oauthCliHome(fixtureOptions, (_f, h) => {
    home = h;
    return oauth;
  });
  return current.fixture;
}

const CLIENT_CREDENTIALS_DPOP = ['grant_type = "client_credentials"', 'client_id = "svc"', 'client_secret_env_var = "SVC_SECRET"', 'dpop = true'];

const cli = (args: string[]): Promise<CliResult> => runCli(args, { home, env: ENV });
async function echo(text: string): Promise<string> {
  const r = await cli(['mcp', 'call', 'mcp__svc__echo', '--args', JSON.stringify({ text })]);
  if (r.code !== 0) throw new Error(`mcp call failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { content: { text: string }[] }).content[0]!.text;
}

const stored = async () => Object.values(await credentialsFileEntries(home))[0];

describe('DPoP', () => {
  it('client credentials with a nonce-demanding server: one retry with the nonce at each end, the key kept for the next process', async () => {
    const f = await setup({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' }, dpop: { nonce: true } }, CLIENT_CREDENTIALS_DPOP);
    expect(await echo('one')).toBe('echo: one');
    // The token request was challenged once and retried with the nonce. The fixture's MCP server shares
    // the authorization server's origin and nonce, which the client already holds for that origin.
    expect(f.dpop!.stats).toMatchObject({ tokenNonceChallenges: 1, tokenProofs: 1, resourceNonceChallenges: 0 });
    expect(f.requestsTo('/token')).toHaveLength(2);
    const first = await stored();
    expect(first?.tokens?.token_type).toBe('DPoP');
    expect(first?.dpop_key).toMatchObject({ alg: 'ES256', jwk: { kty: 'EC' } });
    expect(first?.dpop_key?.jwk.d).toBeTruthy();

    // The next process signs with the stored key: the bound token is accepted, no new token is asked for.
    const proofsBefore = f.dpop!.stats.resourceProofs;
    expect(await echo('two')).toBe('echo: two');
    expect(f.requestsTo('/token')).toHaveLength(2);
    expect(f.dpop!.stats.resourceProofs).toBeGreaterThan(proofsBefore);
    expect((await stored())?.dpop_key).toEqual(first?.dpop_key);

    // The server moves to a new nonce: the first request with the old one is challenged, retried once, and goes through.
    f.dpop!.rotateNonce();
    const challenges = f.dpop!.stats.resourceNonceChallenges;
    expect(await echo('three')).toBe('echo: three');
    expect(f.dpop!.stats.resourceNonceChallenges).toBe(challenges + 1);
  });

  it('every MCP request carries the DPoP scheme and a fresh proof (no nonce)', async () => {
    const f = await setup({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' }, dpop: {} }, CLIENT_CREDENTIALS_DPOP);
    expect(await echo('x')).toBe('echo: x');
    const mcp = f.requests.filter((r) => r.path === '/mcp' && r.authorization);
    expect(mcp.length).toBeGreaterThan(1);
    expect(mcp.every((r) => r.authorization!.startsWith('DPoP '))).toBe(true);
    // The fixture refuses a replayed jti, so every one of these requests had its own proof.
    expect(f.dpop!.stats.resourceProofs).toBe(mcp.length);
    expect(f.stats.mcpUnauthorized).toBe(0);
  });

  it('a browser login binds its tokens to the stored key; a refresh in a later process signs with that key; logout forgets it', async () => {
    const f = await setup({ dpop: { nonce: true } }, ['dpop = true']);
    const login = await cli(['mcp', 'login', 'svc']);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain("Successfully logged in to MCP server 'svc'.");
    const afterLogin = await stored();
    expect(afterLogin?.tokens?.token_type).toBe('DPoP');
    expect(afterLogin?.dpop_key).toBeDefined();

    expect(await echo('logged in')).toBe('echo: logged in');
    // Later: the access token has expired; the refresh token is bound to the key, and the refresh works.
    await expireStoredTokens(home);
    expect(await echo('refreshed')).toBe('echo: refreshed');
    expect(f.stats.refreshGrants).toBe(1);
    expect(f.requestsTo('/token').filter((r) => r.params.grant_type === 'refresh_token').length).toBeGreaterThan(0);
    expect((await stored())?.dpop_key).toEqual(afterLogin?.dpop_key);

    expect((await cli(['mcp', 'logout', 'svc'])).stdout).toBe("Removed OAuth credentials for 'svc'.\n");
    expect(await stored()).toBeUndefined();
  });
});
