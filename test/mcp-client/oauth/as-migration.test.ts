// SEP-2352 authorization-server migration: a resource that moves to another authorization server
// rejects the old token; the client looks the resource up again, registers with the new server (never
// presenting the old client or tokens there), authorizes and carries on.
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../../../src/mcp-client/index.js';
import { MemoryTokenStore, OAuthRuntime, SwitchboardOAuthProvider } from '../../../src/mcp-client/oauth/index.js';
import { nullLogger } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { httpServer, withRetry } from './helpers.js';

let fixture: OAuthFixture | undefined;
let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  await fixture?.close();
});

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((c) => c.text ?? '').join('');

describe('authorization-server migration', () => {
  it('re-discovers, registers with the new server, and the call succeeds', async () => {
    fixture = await startOAuthFixture({ issuerPath: '/tenant1' });
    const runtime = new OAuthRuntime({ home: null, store: new MemoryTokenStore(), logger: nullLogger, env: {} });
    const provider = new SwitchboardOAuthProvider({
      session: runtime.session('docs', fixture.mcpUrl),
      mode: { kind: 'headless', redirectUrl: 'http://127.0.0.1:9/callback' },
      grant: { kind: 'authorization_code' },
    });
    client = createMcpClient(httpServer('docs', fixture.mcpUrl), { logger: nullLogger, env: {}, authProviderFor: () => provider });
    await withRetry(provider, () => client!.connect());
    expect(textOf(await client.callTool('echo', { text: 'before' }))).toBe('echo: before');
    expect(fixture.requestsTo('/tenant1/register')).toHaveLength(1);

    fixture.moveAuthorizationServer('/tenant2');
    expect(textOf(await withRetry(provider, () => client!.callTool('echo', { text: 'after the move' })))).toBe('echo: after the move');
    const registrations = fixture.requestsTo('/tenant2/register');
    expect(registrations).toHaveLength(1);
    // The new server never saw the old client: each authorization went to its own server's client.
    const clientAt = (tenant: string) => fixture!.requestsTo(`/${tenant}/authorize`).map((r) => r.params.client_id);
    expect(clientAt('tenant1')).toHaveLength(1);
    expect(clientAt('tenant2')).toHaveLength(1);
    expect(clientAt('tenant2')[0]).not.toBe(clientAt('tenant1')[0]);
  });
});
