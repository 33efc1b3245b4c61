// `grant_type = "client_credentials"`: tokens are fetched without a login, with the secret from
// `client_secret_env_var`, again before they expire, and a missing secret is a clear config error.
import { afterEach, describe, expect, it } from 'vitest';
import { performOAuthLogin } from '../../../src/mcp-client/oauth/index.js';
import { isSwitchboardError } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { connect, echo, fileRuntime, httpServer, storedCredentials } from './helpers.js';
import { tempHome } from '../../support/temp.js';

const OAUTH = { client_id: 'svc', client_secret_env_var: 'SVC_SECRET', grant_type: 'client_credentials' };

describe('client_credentials grant', () => {
  let fixture: OAuthFixture | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await fixture?.close();
    await cleanup?.();
  });

  it('connects with a token from the client_credentials grant and refreshes it before expiry', async () => {
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' } });
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('svc', fixture.mcpUrl, { oauth: OAUTH });
    const env = { SVC_SECRET: 's3cret' };

    const first = await connect(fixture.mcpUrl, fileRuntime(home.home, { env }).authProviderFor(server));
    expect(await echo(first.client, 'one')).toBe('echo: one');
    await first.client.close();
    expect(fixture.stats.clientCredentialsGrants).toBe(1);
    const [request] = fixture.requestsTo('/token');
    expect(request!.params.grant_type).toBe('client_credentials');
    expect(request!.authorization).toBe(`Basic ${Buffer.from('svc:s3cret').toString('base64')}`);
    expect((await storedCredentials(home.home, 'svc', fixture.mcpUrl))?.tokens?.access_token).toMatch(/^at-/);

    // 59 minutes later the stored token expires within the refresh window: a new one is fetched first.
    const later = () => Date.now() + 3590_000;
    const second = await connect(fixture.mcpUrl, fileRuntime(home.home, { env, now: later }).authProviderFor(server));
    expect(await echo(second.client, 'two')).toBe('echo: two');
    await second.client.close();
    expect(fixture.stats.clientCredentialsGrants).toBe(2);
    expect(fixture.stats.mcpUnauthorized).toBe(0);
  });

  it('steps up by fetching a token with the wider scope on 403 insufficient_scope', async () => {
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' }, stepUpScope: 'admin' });
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('svc', fixture.mcpUrl, { oauth: OAUTH });
    const { client } = await connect(fixture.mcpUrl, fileRuntime(home.home, { env: { SVC_SECRET: 's3cret' } }).authProviderFor(server));
    const result = await client.callTool({ name: 'admin_action', arguments: {} });
    expect((result.content as { text: string }[])[0]!.text).toBe('admin done');
    await client.close();
    expect(fixture.stats.mcpForbidden).toBe(1);
    expect(fixture.requestsTo('/token').map((r) => r.params.scope)).toEqual([undefined, 'admin']);
  });

  it('`mcp login` for a client_credentials server fetches and stores a token', async () => {
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' } });
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('svc', fixture.mcpUrl, { oauth: OAUTH });
    await performOAuthLogin({ runtime: fileRuntime(home.home, { env: { SVC_SECRET: 's3cret' } }), server, print: () => {}, openBrowser: async () => false });
    expect(fixture.stats.clientCredentialsGrants).toBe(1);
    expect((await storedCredentials(home.home, 'svc', fixture.mcpUrl))?.tokens).toBeDefined();
  });

  it('names the missing secret variable', async () => {
    fixture = await startOAuthFixture();
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('svc', fixture.mcpUrl, { oauth: OAUTH });
    let error: unknown;
    try {
      fileRuntime(home.home, { env: {} }).authProviderFor(server);
    } catch (err) {
      error = err;
    }
    expect(isSwitchboardError(error, 'config')).toBe(true);
    expect((error as Error).message).toBe("Environment variable SVC_SECRET for MCP server 'svc' is not set");
  });
});
