// `auth_status` by Codex's rules, against the real fixture and a server without OAuth.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTokenStore, determineAuthStatus, oauthStoreKey } from '../../../src/mcp-client/oauth/index.js';
import { parseMcpServerConfig } from '../../../src/config/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { httpServer, loginWithBrowser } from './helpers.js';
import { tempHome } from '../../support/temp.js';

describe('determineAuthStatus', () => {
  let fixture: OAuthFixture | undefined;
  let plain: Server | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await fixture?.close();
    if (plain) await new Promise<void>((r) => plain!.close(() => r()));
    await cleanup?.();
  });

  async function deps() {
    const home = await tempHome();
    cleanup = home.cleanup;
    return { home: home.home, store: new FileTokenStore(path.join(home.home, '.credentials.json')), env: {} };
  }

  it('stdio and disabled servers are unsupported; configured bearer tokens are bearer_token', async () => {
    const d = await deps();
    const stdio = parseMcpServerConfig('local', { command: 'true' }).config;
    expect(await determineAuthStatus(stdio, d)).toBe('unsupported');
    expect(await determineAuthStatus(httpServer('off', 'http://127.0.0.1:9/mcp', { enabled: false }), d)).toBe('unsupported');
    expect(await determineAuthStatus(httpServer('b', 'http://127.0.0.1:9/mcp', { bearer_token_env_var: 'TOKEN' }), d)).toBe('bearer_token');
    expect(await determineAuthStatus(httpServer('h', 'http://127.0.0.1:9/mcp', { http_headers: { authorization: 'Bearer x' } }), d)).toBe('bearer_token');
    expect(await determineAuthStatus(httpServer('e', 'http://127.0.0.1:9/mcp', { env_http_headers: { Authorization: 'AUTH' } }), d)).toBe('bearer_token');
  });

  it('not_logged_in when discovery succeeds, oauth after a login, by Codex rules for expiry', async () => {
    fixture = await startOAuthFixture();
    const d = await deps();
    const server = httpServer('docs', fixture.mcpUrl);
    expect(await determineAuthStatus(server, d)).toBe('not_logged_in');
    await loginWithBrowser(d.home, server);
    expect(await determineAuthStatus(server, d)).toBe('oauth');

    const key = oauthStoreKey('docs', fixture.mcpUrl);
    const stored = (await d.store.load(key))!;
    const later = () => Date.now() + 7200_000; // past the access token's expiry
    expect(await determineAuthStatus(server, { ...d, now: later })).toBe('oauth'); // refresh token left
    const { refresh_token: _dropped, ...withoutRefresh } = stored.tokens!;
    await d.store.save(key, { ...stored, tokens: withoutRefresh });
    expect(await determineAuthStatus(server, d)).toBe('oauth');
    expect(await determineAuthStatus(server, { ...d, now: later })).toBe('not_logged_in');
  });

  it('unsupported when the server has no OAuth metadata or cannot be reached', async () => {
    plain = createServer((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => plain!.listen(0, '127.0.0.1', r));
    const d = await deps();
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
    expect(await determineAuthStatus(httpServer('plain', url), d)).toBe('unsupported');
    expect(await determineAuthStatus(httpServer('gone', 'http://127.0.0.1:9/mcp'), d)).toBe('unsupported');
  });

  it('client_credentials servers are oauth when their secret is set', async () => {
    const d = await deps();
    const server = httpServer('svc', 'http://127.0.0.1:9/mcp', { oauth: { client_id: 'svc', client_secret_env_var: 'SVC_SECRET', grant_type: 'client_credentials' } });
    expect(await determineAuthStatus(server, { ...d, env: { SVC_SECRET: 'x' } })).toBe('oauth');
    expect(await determineAuthStatus(server, { ...d, env: {} })).toBe('not_logged_in');
  });
});
