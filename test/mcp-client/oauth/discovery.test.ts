// Discovery variants against the real fixture (through the SDK's discovery functions), and a full
// login through each layout.
import { afterEach, describe, expect, it } from 'vitest';
import { discoverAuthorizationState, discoverOAuth } from '../../../src/mcp-client/oauth/index.js';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from '../../fixtures/oauth-fixture.js';
import { connect, echo, fileRuntime, httpServer, loginWithBrowser } from './helpers.js';
import { tempHome } from '../../support/temp.js';

const LAYOUTS: { name: string; options: OAuthFixtureOptions; metadataPath: (f: OAuthFixture) => string }[] = [
  { name: 'path-aware PRM, RFC 8414 at the origin', options: {}, metadataPath: () => '/.well-known/oauth-authorization-server' },
  { name: 'root PRM, issuer with a path', options: { prm: 'root', issuerPath: '/tenant1' }, metadataPath: () => '/.well-known/oauth-authorization-server/tenant1' },
  {
    name: 'custom PRM from WWW-Authenticate, OpenID configuration under the issuer path',
    options: { prm: { path: '/custom/metadata.json' }, asMetadata: 'oidc', issuerPath: '/tenant1' },
    metadataPath: () => '/tenant1/.well-known/openid-configuration',
  },
  { name: '2025-03-26: no PRM, metadata at the origin', options: { prm: 'none' }, metadataPath: () => '/.well-known/oauth-authorization-server' },
];

describe('OAuth discovery', () => {
  let fixture: OAuthFixture | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await fixture?.close();
    await cleanup?.();
  });

  for (const layout of LAYOUTS) {
    it(`finds the authorization server and logs in: ${layout.name}`, async () => {
      fixture = await startOAuthFixture({ ...layout.options, scopesSupported: ['mcp:read'] });
      const resourceMetadataUrl = typeof layout.options.prm === 'object' ? new URL(`${fixture.url}${layout.options.prm.path}`) : undefined;
      const state = await discoverAuthorizationState(fixture.mcpUrl, { resourceMetadataUrl });
      expect(state.authorizationServerMetadata?.issuer).toBe(fixture.issuer);
      expect(fixture.requestsTo(layout.metadataPath(fixture)).length).toBeGreaterThan(0);

      const home = await tempHome();
      cleanup = home.cleanup;
      const server = httpServer('docs', fixture.mcpUrl);
      await loginWithBrowser(home.home, server);
      const { client } = await connect(fixture.mcpUrl, fileRuntime(home.home).authProviderFor(server));
      expect(await echo(client, 'ok')).toBe('echo: ok');
      await client.close();
    });
  }

  it('tries the path-aware PRM before the root one', async () => {
    fixture = await startOAuthFixture({ prm: 'root' });
    await discoverOAuth(fixture.mcpUrl);
    const prm = fixture.requests.filter((r) => r.path.startsWith('/.well-known/oauth-protected-resource')).map((r) => r.path);
    expect(prm).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
  });

  it('normalises scopes_supported and reports servers without metadata as undefined', async () => {
    fixture = await startOAuthFixture({ scopesSupported: [' mcp:read ', 'mcp:read', '', 'mcp:write'] });
    expect((await discoverOAuth(fixture.mcpUrl))?.scopesSupported).toEqual(['mcp:read', 'mcp:write']);
    await fixture.close();
    fixture = await startOAuthFixture({ prm: 'none', asMetadata: 'none' });
    expect(await discoverOAuth(fixture.mcpUrl)).toBeUndefined();
  });

  it('2025-03-26 servers without any metadata: login falls back to /authorize, /token and /register', async () => {
    fixture = await startOAuthFixture({ prm: 'none', asMetadata: 'none' });
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('docs', fixture.mcpUrl);
    await loginWithBrowser(home.home, server);
    expect(fixture.requestsTo('/register')).toHaveLength(1);
    expect(fixture.stats.authorizationCodeGrants).toBe(1);
  });
});
