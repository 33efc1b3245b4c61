// Token refresh against the real fixture: before expiry, after a 401, concurrently inside one
// process, with a revoked refresh token, with a transient failure, and without rotation.
import { afterEach, describe, expect, it } from 'vitest';
import { performOAuthLogout } from '../../../src/mcp-client/oauth/index.js';
import { isSwitchboardError } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from '../../fixtures/oauth-fixture.js';
import { connect, echo, fileRuntime, httpServer, loginWithBrowser, storedCredentials } from './helpers.js';
import { tempHome } from '../../support/temp.js';

describe('OAuth refresh', () => {
  let fixture: OAuthFixture | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await fixture?.close();
    await cleanup?.();
  });

  async function setup(options: OAuthFixtureOptions = {}) {
    fixture = await startOAuthFixture(options);
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('docs', fixture.mcpUrl);
    await loginWithBrowser(home.home, server);
    return { fixture, home: home.home, server };
  }

  it('refreshes before use when the access token expires within 60 s', async () => {
    const { fixture, home, server } = await setup({ accessTokenTtlSec: 30 });
    fixture.accessTokenTtlSec = 3600;
    const before = await storedCredentials(home, 'docs', fixture.mcpUrl);
    const rejectedBefore = fixture.stats.mcpUnauthorized; // the login's unauthenticated probe
    const { client } = await connect(fixture.mcpUrl, fileRuntime(home).authProviderFor(server));
    expect(await echo(client, 'a')).toBe('echo: a');
    expect(await echo(client, 'b')).toBe('echo: b');
    await client.close();
    expect(fixture.stats.refreshGrants).toBe(1);
    // The refresh happened before any request: the server never saw the old token rejected.
    expect(fixture.stats.mcpUnauthorized).toBe(rejectedBefore);
    const after = await storedCredentials(home, 'docs', fixture.mcpUrl);
    expect(after?.tokens?.access_token).not.toBe(before?.tokens?.access_token);
    expect(after?.tokens?.refresh_token).not.toBe(before?.tokens?.refresh_token);
    expect(after?.tokens?.issuer).toBe(fixture.issuer);
    const [refresh] = fixture.requestsTo('/token').filter((r) => r.params.grant_type === 'refresh_token');
    expect(refresh!.params.resource).toBe(fixture.mcpUrl);
  });

  it('refreshes once after a 401 when the server rejects a token early, then retries', async () => {
    const { fixture, home, server } = await setup();
    fixture.rejectIssuedAccessTokens();
    const rejectedBefore = fixture.stats.mcpUnauthorized;
    const { client } = await connect(fixture.mcpUrl, fileRuntime(home).authProviderFor(server));
    expect(await echo(client, 'x')).toBe('echo: x');
    await client.close();
    expect(fixture.stats.mcpUnauthorized).toBe(rejectedBefore + 1);
    expect(fixture.stats.refreshGrants).toBe(1);
    expect(fixture.stats.refreshReuse).toBe(0);
  });

  it('uses a one-time refresh token once when several connections refresh at the same moment', async () => {
    const { fixture, home, server } = await setup({ accessTokenTtlSec: 30, refreshDelayMs: 200 });
    fixture.accessTokenTtlSec = 3600;
    const runtime = fileRuntime(home);
    const results = await Promise.all(
      [1, 2, 3].map(async (i) => {
        const { client } = await connect(fixture.mcpUrl, runtime.authProviderFor(server));
        const text = await echo(client, `c${i}`);
        await client.close();
        return text;
      }),
    );
    expect(results).toEqual(['echo: c1', 'echo: c2', 'echo: c3']);
    expect(fixture.stats.refreshGrants).toBe(1);
    expect(fixture.stats.refreshReuse).toBe(0);
  });

  it('serialises the SDK refresh after simultaneous 401s so no refresh token is replayed', async () => {
    const { fixture, home, server } = await setup({ refreshDelayMs: 100 });
    const runtime = fileRuntime(home);
    const connections = await Promise.all([1, 2, 3].map(() => connect(fixture.mcpUrl, runtime.authProviderFor(server))));
    fixture.rejectIssuedAccessTokens();
    const results = await Promise.all(connections.map(({ client }, i) => echo(client, `p${i}`)));
    expect(results).toEqual(['echo: p0', 'echo: p1', 'echo: p2']);
    expect(fixture.stats.refreshReuse).toBe(0);
    expect(fixture.stats.refreshGrants).toBeGreaterThanOrEqual(1);
    await Promise.all(connections.map(({ client }) => client.close()));
  });

  it('reports a revoked refresh token as "not logged in" and forgets the tokens (401 path)', async () => {
    const { fixture, home, server } = await setup();
    fixture.revokeAll();
    const transport = fileRuntime(home).authProviderFor(server);
    const error = await connect(fixture.mcpUrl, transport).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(error, 'auth_required')).toBe(true);
    expect((error as Error).message).toBe('The docs MCP server is not logged in. Run `switchboard mcp login docs`.');
    const stored = await storedCredentials(home, 'docs', fixture.mcpUrl);
    expect(stored?.tokens).toBeUndefined();
    expect(stored?.client_information?.client_id).toBeDefined();
  });

  it('reports a revoked refresh token as "not logged in" when refreshing before expiry', async () => {
    const { fixture, home, server } = await setup({ accessTokenTtlSec: 30 });
    fixture.refreshMode = 'invalid_grant';
    const error = await connect(fixture.mcpUrl, fileRuntime(home).authProviderFor(server)).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(error, 'auth_required')).toBe(true);
    expect((error as Error).message).toBe('The docs MCP server is not logged in. Run `switchboard mcp login docs`.');
  });

  it('does not call a transient refresh failure "not logged in", and keeps the login', async () => {
    const { fixture, home, server } = await setup({ accessTokenTtlSec: 30 });
    fixture.refreshMode = 'server_error';
    const proactive = await connect(fixture.mcpUrl, fileRuntime(home).authProviderFor(server)).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(proactive, 'oauth_refresh_failed')).toBe(true);
    expect((proactive as Error).message).toMatch(/^failed to refresh OAuth tokens for server docs: /);
    expect((await storedCredentials(home, 'docs', fixture.mcpUrl))?.tokens?.refresh_token).toBeDefined();

    // The same after a 401, where the SDK runs the refresh.
    fixture.accessTokenTtlSec = 3600;
    fixture.refreshMode = 'ok';
    const { client } = await connect(fixture.mcpUrl, fileRuntime(home).authProviderFor(server));
    fixture.refreshMode = 'server_error';
    fixture.rejectIssuedAccessTokens();
    const afterReject = await echo(client, 'z').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(afterReject, 'oauth_refresh_failed')).toBe(true);
    expect((await storedCredentials(home, 'docs', fixture.mcpUrl))?.tokens?.refresh_token).toBeDefined();
    await client.close();
  });

  it('a logout in another process wins over a pending refresh', async () => {
    const { fixture, home, server } = await setup({ accessTokenTtlSec: 30 });
    const running = fileRuntime(home);
    const provider = running.authProviderFor(server)!;
    expect((await provider.session.current())?.tokens).toBeDefined(); // loaded before the logout
    expect(await performOAuthLogout(fileRuntime(home), server)).toBe("Removed OAuth credentials for 'docs'.");
    const error = await connect(fixture.mcpUrl, provider).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(error, 'auth_required')).toBe(true);
    expect(fixture.stats.refreshGrants).toBe(0);
    expect(await storedCredentials(home, 'docs', fixture.mcpUrl)).toBeUndefined();
  });

  it('a running connection picks up a login made after it started', async () => {
    fixture = await startOAuthFixture();
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('docs', fixture.mcpUrl);
    const provider = fileRuntime(home.home).authProviderFor(server)!;
    const before = await connect(fixture.mcpUrl, provider).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(before, 'auth_required')).toBe(true);
    await loginWithBrowser(home.home, server);
    const { client } = await connect(fixture.mcpUrl, provider);
    expect(await echo(client, 'late')).toBe('echo: late');
    await client.close();
  });

  it('keeps the old refresh token when the refresh response carries none', async () => {
    const { fixture, home, server } = await setup({ accessTokenTtlSec: 30, rotateRefreshTokens: false });
    fixture.accessTokenTtlSec = 3600;
    const before = await storedCredentials(home, 'docs', fixture.mcpUrl);
    const { client } = await connect(fixture.mcpUrl, fileRuntime(home).authProviderFor(server));
    expect(await echo(client, 'k')).toBe('echo: k');
    await client.close();
    const after = await storedCredentials(home, 'docs', fixture.mcpUrl);
    expect(fixture.stats.refreshGrants).toBe(1);
    expect(after?.tokens?.access_token).not.toBe(before?.tokens?.access_token);
    expect(after?.tokens?.refresh_token).toBe(before?.tokens?.refresh_token);
  });
});
