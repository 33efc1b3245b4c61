// 403 insufficient_scope: a connection reports what to log in with; a headless provider re-authorizes
// with the union of scopes and retries; a server that is never satisfied stops after the limit.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore, OAuthRuntime, SwitchboardOAuthProvider, performOAuthLogin } from '../../../src/mcp-client/oauth/index.js';
import { isSwitchboardError, nullLogger } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { autoApproveBrowser, connect, fileRuntime, httpServer, withRetry } from './helpers.js';
import { tempHome } from '../../support/temp.js';

async function callAdmin(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'admin_action', arguments: {} });
  return (result.content as { text: string }[])[0]!.text;
}

function headlessProvider(url: string): SwitchboardOAuthProvider {
  const runtime = new OAuthRuntime({ home: null, store: new MemoryTokenStore(), logger: nullLogger, env: {} });
  return new SwitchboardOAuthProvider({
    session: runtime.session('docs', url),
    mode: { kind: 'headless', redirectUrl: 'http://127.0.0.1:9/callback' },
    grant: { kind: 'authorization_code' },
  });
}

async function connectWithRetry(url: string, provider: SwitchboardOAuthProvider): Promise<Client> {
  return withRetry(provider, async () => {
    const client = new Client({ name: 'step-up-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    return client;
  });
}

describe('step-up on insufficient_scope', () => {
  let fixture: OAuthFixture | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await fixture?.close();
    await cleanup?.();
  });

  it('a connection tells the user which scopes to log in with, and works after that login', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read', 'admin'], stepUpScope: 'admin' });
    const home = await tempHome();
    cleanup = home.cleanup;
    const server = httpServer('docs', fixture.mcpUrl);
    await performOAuthLogin({ runtime: fileRuntime(home.home), server, scopes: ['mcp:read'], print: () => {}, openBrowser: autoApproveBrowser });

    const { client } = await connect(fixture.mcpUrl, fileRuntime(home.home).authProviderFor(server));
    const error = await callAdmin(client).then(
      () => undefined,
      (err: unknown) => err,
    );
    await client.close();
    expect(isSwitchboardError(error, 'insufficient_scope')).toBe(true);
    expect((error as Error).message).toBe(
      'Insufficient scope: the docs MCP server requires additional OAuth scopes (mcp:read admin). Run `switchboard mcp login docs --scopes mcp:read,admin`.',
    );
    expect(fixture.requestsTo('/authorize')).toHaveLength(1); // no authorization was started

    await performOAuthLogin({ runtime: fileRuntime(home.home), server, scopes: ['mcp:read', 'admin'], print: () => {}, openBrowser: autoApproveBrowser });
    const again = await connect(fixture.mcpUrl, fileRuntime(home.home).authProviderFor(server));
    expect(await callAdmin(again.client)).toBe('admin done');
    await again.client.close();
  });

  it('a headless provider re-authorizes with the union of scopes and the call succeeds', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read', 'admin'], challengeScope: 'mcp:read', stepUpScope: 'admin' });
    const provider = headlessProvider(fixture.mcpUrl);
    const client = await connectWithRetry(fixture.mcpUrl, provider);
    expect(await withRetry(provider, () => callAdmin(client))).toBe('admin done');
    await client.close();
    const scopes = fixture.requestsTo('/authorize').map((r) => r.params.scope);
    expect(scopes).toEqual(['mcp:read', 'mcp:read admin']);
  });

  it('stops re-authorizing a server that is never satisfied', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read', 'admin'], challengeScope: 'mcp:read', stepUpScope: 'admin', withheldScopes: ['admin'] });
    const provider = headlessProvider(fixture.mcpUrl);
    const client = await connectWithRetry(fixture.mcpUrl, provider);
    const error = await withRetry(provider, () => callAdmin(client)).then(
      () => undefined,
      (err: unknown) => err,
    );
    await client.close();
    expect(isSwitchboardError(error, 'insufficient_scope')).toBe(true);
    expect(fixture.requestsTo('/authorize').length).toBeLessThanOrEqual(3);
    expect(fixture.stats.mcpForbidden).toBeLessThanOrEqual(3);
  });
});
