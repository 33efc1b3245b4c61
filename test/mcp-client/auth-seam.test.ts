// The OAuth seam: deps.authProviderFor hands the SDK transport a provider; a 401 runs its refresh hook
// and retries once; when that fails but newer credentials were saved meanwhile (another connection
// or process refreshed), the operation adopts them once; otherwise the error is auth_required.
import type { AuthProvider } from '@modelcontextprotocol/client';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { isMcpClientError } from '../../src/mcp-client/index.js';
import type { McpClient } from '../../src/mcp-client/index.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { startHttpFixture } from '../fixtures/mcp/http-fixture.js';
import type { HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { clientPool, serverConfig, textOf } from './helpers.js';
import { waitFor } from '../support/wait.js';

const pool = clientPool();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});

/** A token store shared by "processes"; the provider reads it on every request. */
function storeProvider(store: { token: string }, onRefresh: () => Promise<void>): AuthProvider & { refreshes: number } {
  const provider = {
    refreshes: 0,
    token: async () => store.token,
    onUnauthorized: async () => {
      provider.refreshes += 1;
      await onRefresh();
    },
  };
  return provider;
}

async function setup(token: string) {
  const f = await startHttpFixture({ createServer: () => createFixtureServer() as never, bearerToken: token });
  fixtures.push(f);
  return f;
}

/** Connect, and let the standalone GET stream open before tokens change (it would 401 too). */
async function connected(client: McpClient, f: HttpFixture): Promise<void> {
  await client.connect();
  await waitFor(() => f.gets.length > 0, 'the GET stream', 10_000);
}

describe('OAuth seam', () => {
  it('sends the provider token and refreshes once on a 401', async () => {
    const f = await setup('t1');
    const store = { token: 't1' };
    const provider = storeProvider(store, async () => {
      store.token = 't2';
    });
    const client = pool.create(serverConfig('web', { url: f.url }), { authProviderFor: () => provider });
    await connected(client, f);
    expect(f.postHeaders[0]!.authorization).toBe('Bearer t1');
    f.setBearerToken('t2');
    expect(textOf(await client.callTool('echo', { text: 'refreshed' }))).toBe('refreshed');
    expect(provider.refreshes).toBe(1);
  });

  it('adopts credentials saved by someone else when its own refresh fails', async () => {
    const f = await setup('t1');
    const store = { token: 't1' };
    const provider = storeProvider(store, async () => {
      // Our one-time refresh token was already spent by another process, which saved new tokens.
      store.token = 't3';
      throw new UnauthorizedError('refresh token already used');
    });
    const client = pool.create(serverConfig('web', { url: f.url }), { authProviderFor: () => provider });
    await connected(client, f);
    f.setBearerToken('t3');
    expect(textOf(await client.callTool('echo', { text: 'adopted' }))).toBe('adopted');
    expect(provider.refreshes).toBe(1);
  });

  it('reports auth_required when no usable token exists', async () => {
    const f = await setup('t1');
    const store = { token: 't1' };
    const provider = storeProvider(store, async () => {
      throw new UnauthorizedError('refresh token revoked');
    });
    const client = pool.create(serverConfig('web', { url: f.url }), { authProviderFor: () => provider });
    await connected(client, f);
    f.setBearerToken('rotated-elsewhere');
    const err = await client.callTool('echo', { text: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isMcpClientError(err, 'auth_required')).toBe(true);
    expect((err as Error).message).toContain('Auth required');
    expect(provider.refreshes).toBe(1);
  });

  it('is not consulted when the server has an explicit bearer token', async () => {
    const f = await setup('static');
    let asked = 0;
    const client = pool.create(serverConfig('web', { url: f.url, bearer_token_env_var: 'TOKEN' }), {
      env: { TOKEN: 'static' },
      authProviderFor: () => {
        asked += 1;
        return undefined;
      },
    });
    await client.connect();
    expect(asked).toBe(0);
  });
});
