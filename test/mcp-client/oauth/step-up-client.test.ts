// Scope step-up through switchboard's McpClient: a 403 insufficient_scope leads to a token for the
// union of the held and the required scopes and the call is retried; a server that is never
// satisfied fails the call after MAX_STEP_UP_RETRIES re-authorizations with a clear error; a
// connection without a way to authorize names the login (with the union) that would fix it.
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../../../src/mcp-client/index.js';
import { performOAuthLogin } from '../../../src/mcp-client/oauth/index.js';
import { nullLogger } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { failure } from '../helpers.js';
import { autoApproveBrowser, fileRuntime, httpServer } from './helpers.js';
import { tempHome } from '../../support/temp.js';

const SECRET = { SVC_SECRET: 's3cret' };
const CLIENT_CREDENTIALS = { client_id: 'svc', client_secret_env_var: 'SVC_SECRET', grant_type: 'client_credentials' };

let fixture: OAuthFixture | undefined;
let client: McpClient | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await client?.close();
  await fixture?.close();
  await cleanup?.();
  client = fixture = cleanup = undefined;
});

async function clientFor(extra: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<{ client: McpClient; home: string }> {
  const home = await tempHome();
  cleanup = home.cleanup;
  const server = httpServer('svc', fixture!.mcpUrl, extra);
  client = createMcpClient(server, { logger: nullLogger, env, authProviderFor: () => fileRuntime(home.home, { env }).authProviderFor(server) });
  return { client, home: home.home };
}

const textOf = (r: { content?: unknown }) => (r.content as { text: string }[])[0]!.text;

describe('scope step-up through the McpClient', () => {
  it('asks for the union of the held and the required scopes, then retries the call', async () => {
    // The challenge names only the missing scope; the token held already carries mcp:read.
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' }, stepUpScope: 'admin', stepUpChallenge: 'required', defaultGrantScope: 'mcp:read' });
    const { client } = await clientFor({ oauth: CLIENT_CREDENTIALS }, SECRET);
    await client.connect();
    expect(textOf(await client.callTool('admin_action', {}))).toBe('admin done');
    expect(fixture.stats.mcpForbidden).toBe(1);
    expect(fixture.requestsTo('/token').map((r) => r.params.scope)).toEqual([undefined, 'mcp:read admin']);
  });

  it('stops after 2 step-ups at a server that is never satisfied, with a clear error', async () => {
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' }, stepUpScope: 'admin', stepUpChallenge: 'required', withheldScopes: ['admin'] });
    const { client } = await clientFor({ oauth: CLIENT_CREDENTIALS }, SECRET);
    await client.connect();
    const error = await failure(client.callTool('admin_action', {}));
    expect(error).toMatchObject({
      code: 'insufficient_scope',
      message: 'Insufficient scope: the MCP server answered HTTP 403 after 2 step-up re-authorizations with wider scopes; it requires scope `admin`',
    });
    expect(fixture.stats.mcpForbidden).toBe(3);
    expect(fixture.requestsTo('/token')).toHaveLength(3);
  });

  it('a logged-in connection names the login with the union of scopes, and works after it', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp:read', 'admin'], stepUpScope: 'admin', stepUpChallenge: 'required' });
    const { client, home } = await clientFor({});
    const server = httpServer('svc', fixture.mcpUrl);
    await performOAuthLogin({ runtime: fileRuntime(home), server, scopes: ['mcp:read'], print: () => {}, openBrowser: autoApproveBrowser });
    await client.connect();
    const error = await failure(client.callTool('admin_action', {}));
    expect(error).toMatchObject({
      code: 'insufficient_scope',
      message: 'Insufficient scope: the svc MCP server requires additional OAuth scopes (mcp:read admin). Run `switchboard mcp login svc --scopes mcp:read,admin`.',
    });
    expect(error).toMatchObject({ details: { requiredScope: 'mcp:read admin' } });
    expect(fixture.requestsTo('/authorize')).toHaveLength(1);

    await performOAuthLogin({ runtime: fileRuntime(home), server, scopes: ['mcp:read', 'admin'], print: () => {}, openBrowser: autoApproveBrowser });
    expect(textOf(await client.callTool('admin_action', {}))).toBe('admin done');
  });
});
