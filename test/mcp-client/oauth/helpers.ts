// Shared helpers for the OAuth integration tests: server configs, a headless "browser",
// and an SDK client connected through switchboard's OAuth provider.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { parseMcpServerConfig, type McpServerConfig } from '../../../src/config/index.js';
import { FileTokenStore, OAuthRuntime, oauthStoreKey, performOAuthLogin, type StoredOAuthCredentials, type SwitchboardOAuthProvider } from '../../../src/mcp-client/oauth/index.js';
import { nullLogger } from '../../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from '../../fixtures/oauth-fixture.js';
import { tempHome } from '../../support/temp.js';

export function httpServer(name: string, url: string, extra: Record<string, unknown> = {}): McpServerConfig {
  return parseMcpServerConfig(name, { url, ...extra }).config;
}

/** A runtime over the file store in `home` (what a fresh switchboard process would build). */
export function fileRuntime(home: string, options: { env?: NodeJS.ProcessEnv; now?: () => number } = {}): OAuthRuntime {
  return new OAuthRuntime({
    home,
    store: new FileTokenStore(path.join(home, '.credentials.json')),
    logger: nullLogger,
    env: options.env ?? {},
    now: options.now,
  });
}

/** A "browser" that follows the authorization redirect to the loopback callback. */
export async function autoApproveBrowser(url: string): Promise<boolean> {
  let current = url;
  for (let i = 0; i < 5; i++) {
    const response = await fetch(current, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) return response.ok;
    current = new URL(location, current).href;
    if (new URL(current).hostname === '127.0.0.1' && new URL(current).pathname === '/callback') {
      const done = await fetch(current);
      await done.body?.cancel();
      return true;
    }
  }
  return false;
}

export async function connect(url: string, authProvider: OAuthClientProvider | undefined): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { client, transport };
}

export async function echo(client: Client, text: string): Promise<string> {
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  const first = (result.content as { type: string; text?: string }[])[0];
  return first?.text ?? '';
}

/** Log `server` in through the real browser flow (auto-approved). */
export async function loginWithBrowser(home: string, server: McpServerConfig): Promise<void> {
  await performOAuthLogin({ runtime: fileRuntime(home), server, print: () => {}, openBrowser: autoApproveBrowser });
}

export async function storedCredentials(home: string, name: string, url: string): Promise<StoredOAuthCredentials | undefined> {
  return new FileTokenStore(path.join(home, '.credentials.json')).load(oauthStoreKey(name, url));
}

/** What a host does with a headless provider: retry the operation after an authorization it completed. */
export async function withRetry<T>(provider: SwitchboardOAuthProvider, op: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (provider.takeCompletedAuthorizations() === 0 || attempt >= 5) throw err;
    }
  }
}

/** The entries of `$home/.credentials.json` (none when the file is absent). */
export async function credentialsFileEntries(home: string): Promise<Record<string, StoredOAuthCredentials>> {
  return JSON.parse(await readFile(path.join(home, '.credentials.json'), 'utf8').catch(() => '{}')) as Record<string, StoredOAuthCredentials>;
}

/** Time passes: every stored access token's expiry is now in the past. */
export async function expireStoredTokens(home: string): Promise<void> {
  const all = await credentialsFileEntries(home);
  for (const entry of Object.values(all)) entry.expires_at = Date.now() - 1000;
  await writeFile(path.join(home, '.credentials.json'), JSON.stringify(all), { mode: 0o600 });
}

/** A fixture and a $SWITCHBOARD_HOME for CLI runs; `close()` ends both. */
export interface OAuthCliHome {
  fixture: OAuthFixture;
  home: string;
  close(): Promise<void>;
}

/** Its config.toml keeps credentials in the 0600 file and has `[mcp_servers.svc]` at the fixture with this `[mcp_servers.svc.oauth]` table. */
export async function oauthCliHome(fixtureOptions: OAuthFixtureOptions, oauthLines: (fixture: OAuthFixture, home: string) => string[]): Promise<OAuthCliHome> {
  const fixture = await startOAuthFixture(fixtureOptions);
  const { home, cleanup } = await tempHome();
  const table = ['mcp_oauth_credentials_store = "file"', '[mcp_servers.svc]', `url = "${fixture.mcpUrl}"`, '[mcp_servers.svc.oauth]', ...oauthLines(fixture, home), ''];
  await writeFile(path.join(home, 'config.toml'), table.join('\n'));
  return {
    fixture,
    home,
    close: async () => {
      await fixture.close();
      await cleanup();
    },
  };
}
