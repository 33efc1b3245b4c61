// Login with dynamic client registration and PKCE against the real fixture authorization server,
// then connections that use the stored tokens.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { performOAuthLogin, oauthStoreKey, type StoredOAuthCredentials } from '../../../src/mcp-client/oauth/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { autoApproveBrowser, connect, echo, fileRuntime, httpServer } from './helpers.js';
import { tempHome } from '../../support/temp.js';

describe('mcp login (DCR + PKCE)', () => {
  let fixture: OAuthFixture;
  let home: { home: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read', 'mcp:write'] });
    home = await tempHome();
  });
  afterEach(async () => {
    await fixture.close();
    await home.cleanup();
  });

  it('registers as switchboard, verifies PKCE, stores the tokens 0600, and connects with them', async () => {
    const server = httpServer('docs', fixture.mcpUrl);
    const printed: string[] = [];
    await performOAuthLogin({ runtime: fileRuntime(home.home), server, print: (t) => printed.push(t), openBrowser: autoApproveBrowser });

    expect(printed.join('')).toContain('Authorize `docs` by opening this URL in your browser:\n');
    const [registration] = fixture.requestsTo('/register');
    expect(JSON.parse(registration!.body)).toMatchObject({ client_name: 'switchboard', grant_types: ['authorization_code', 'refresh_token'] });
    const [authorize] = fixture.requestsTo('/authorize');
    expect(authorize!.params.code_challenge_method).toBe('S256');
    expect(authorize!.params.resource).toBe(fixture.mcpUrl);
    expect(authorize!.params.scope).toBe('mcp:read mcp:write');
    const [tokenRequest] = fixture.requestsTo('/token');
    expect(tokenRequest!.params.grant_type).toBe('authorization_code');
    expect(tokenRequest!.params.resource).toBe(fixture.mcpUrl);
    expect(fixture.stats.authorizationCodeGrants).toBe(1);

    const file = path.join(home.home, '.credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, StoredOAuthCredentials>;
    const entry = stored[oauthStoreKey('docs', fixture.mcpUrl)]!;
    expect(entry.tokens?.issuer).toBe(fixture.issuer);
    expect(entry.client_information?.client_id).toMatch(/^client-/);
    expect(typeof entry.expires_at).toBe('number');

    const runtime = fileRuntime(home.home);
    const { client } = await connect(fixture.mcpUrl, runtime.authProviderFor(server));
    expect(await echo(client, 'hi')).toBe('echo: hi');
    await client.close();
  });
});
