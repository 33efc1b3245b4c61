// Login edge cases: retrying without rejected discovered scopes, a provider error for chosen
// scopes, the 300 s callback wait (shortened), and an explicit empty `scopes = []`.
import { afterEach, describe, expect, it } from 'vitest';
import { performOAuthLogin } from '../../../src/mcp-client/oauth/index.js';
import { isSwitchboardError } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { freePort } from '../../support/free-port.mjs';
import { autoApproveBrowser, fileRuntime, httpServer, storedCredentials } from './helpers.js';
import { tempHome } from '../../support/temp.js';

describe('mcp login flow', () => {
  let fixture: OAuthFixture | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await fixture?.close();
    await cleanup?.();
  });

  async function home(): Promise<string> {
    const h = await tempHome();
    cleanup = h.cleanup;
    return h.home;
  }

  it('retries once without scopes when the provider rejects discovered scopes', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read'], prmScopesSupported: ['mcp:read', 'mcp:bogus'] });
    const dir = await home();
    const printed: string[] = [];
    const server = httpServer('docs', fixture.mcpUrl);
    await performOAuthLogin({ runtime: fileRuntime(dir), server, print: (t) => printed.push(t), openBrowser: autoApproveBrowser });
    expect(printed).toContain('OAuth provider rejected discovered scopes. Retrying without scopes…');
    expect(fixture.requestsTo('/authorize').map((r) => r.params.scope)).toEqual(['mcp:read mcp:bogus', undefined]);
    expect((await storedCredentials(dir, 'docs', fixture.mcpUrl))?.tokens).toBeDefined();
  });

  it('does not retry scopes the user chose; the provider error is reported', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read'] });
    const dir = await home();
    const printed: string[] = [];
    const error = await performOAuthLogin({
      runtime: fileRuntime(dir),
      server: httpServer('docs', fixture.mcpUrl),
      scopes: ['mcp:bogus'],
      print: (t) => printed.push(t),
      openBrowser: autoApproveBrowser,
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(error, 'oauth_provider_error')).toBe(true);
    expect((error as Error).message).toBe('OAuth provider returned `invalid_scope`: unknown scope requested');
    expect(printed.join('')).not.toContain('Retrying without scopes');
    expect(fixture.requestsTo('/authorize')).toHaveLength(1);
  });

  it('sends no scope for an explicit `scopes = []`', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read'] });
    const dir = await home();
    await performOAuthLogin({ runtime: fileRuntime(dir), server: httpServer('docs', fixture.mcpUrl, { scopes: [] }), print: () => {}, openBrowser: autoApproveBrowser });
    expect(fixture.requestsTo('/authorize')[0]!.params.scope).toBeUndefined();
  });

  it('gives up waiting for the callback with Codex\'s text', async () => {
    fixture = await startOAuthFixture();
    const dir = await home();
    const error = await performOAuthLogin({
      runtime: fileRuntime(dir),
      server: httpServer('docs', fixture.mcpUrl),
      print: () => {},
      openBrowser: async () => true, // the user never finishes in the browser
      timeoutMs: 300,
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isSwitchboardError(error, 'oauth_callback_timeout')).toBe(true);
    expect((error as Error).message).toBe('timed out waiting for OAuth callback');
  });

  it('reuses the dynamic registration on the next login with the same callback port', async () => {
    fixture = await startOAuthFixture();
    const dir = await home();
    const server = httpServer('docs', fixture.mcpUrl);
    const port = await freePort();
    await performOAuthLogin({ runtime: fileRuntime(dir), server, callbackPort: port, print: () => {}, openBrowser: autoApproveBrowser });
    await performOAuthLogin({ runtime: fileRuntime(dir), server, callbackPort: port, print: () => {}, openBrowser: autoApproveBrowser });
    expect(fixture.stats.registrations).toBe(1);
    // A different callback URL needs a new registration (the old one would be refused).
    await performOAuthLogin({ runtime: fileRuntime(dir), server, print: () => {}, openBrowser: autoApproveBrowser });
    expect(fixture.stats.registrations).toBe(2);
  });
});
