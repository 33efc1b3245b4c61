// `switchboard serve --http`: resource subscriptions on a server's shared (operator-identity)
// connection outlive the upstream's session. The OAuth fixture's upstream (reached with the
// operator's client_credentials token) forgets its sessions, as a restarted server would: the
// gateway's next request there gets 404 and opens a new session, which holds no subscription, so
// the gateway subscribes again and later updates still reach the 2025 session that subscribed and
// the 2026-07-28 listen stream.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { requireBuild } from '../support/mcp-server-harness.js';
import { removeTree } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { NOTES_URI } from '../fixtures/oauth-fixture-resource.js';
import { servePlace, spawnServe, type ServeProcess } from './serve-process.js';
import { callerClient, EXCHANGE_CLIENT, operatorToken } from './caller-harness.js';

/** What the gateway's clients present (its static token). */
const GATEWAY_TOKEN = 'gateway-static-token-0123456789';

describe('serve --http: subscriptions on a shared upstream connection survive a new upstream session', () => {
  let fixture: OAuthFixture;
  let serve: ServeProcess;
  let home: string;
  let mcpUrl: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    requireBuild();
    const place = await servePlace('sb-shared-subscriptions-');
    ({ home, mcpUrl } = place);
    fixture = await startOAuthFixture({ preRegistered: EXCHANGE_CLIENT, updatableResource: true });
    const token = await operatorToken(fixture);
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.ops]\nurl = "${fixture.mcpUrl}"\nbearer_token_env_var = "OPS_TOKEN"\n`);
    serve = await spawnServe(['--http', `127.0.0.1:${place.port}`], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, OPS_TOKEN: token, SWITCHBOARD_MCP_TOKEN: GATEWAY_TOKEN }, cwd: place.work });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  /** A client of the gateway and the updates of fixture://notes it hears. */
  async function client(modern = false): Promise<{ client: Client; updates: () => number }> {
    const c = await callerClient(mcpUrl, GATEWAY_TOKEN, clients, modern);
    let heard = 0;
    c.setNotificationHandler('notifications/resources/updated', (n) => {
      if (n.params.uri === NOTES_URI) heard += 1;
    });
    return { client: c, updates: () => heard };
  }
  const touch = async (c: Client) => JSON.stringify((await c.callTool({ name: 'mcp__ops__touch_notes', arguments: {} })).content);
  const initializes = () => fixture.requestsTo('/mcp').filter((r) => r.body.includes('"initialize"')).length;

  it('subscribes again upstream when the upstream gives the shared connection a new session', async () => {
    const classic = await client();
    const modern = await client(true);
    await classic.client.subscribeResource({ uri: NOTES_URI });
    const listening = await modern.client.listen({ resourceSubscriptions: [NOTES_URI] });
    try {
      expect(await touch(classic.client)).toContain('touched');
      await expect.poll(classic.updates, { timeout: 20_000 }).toBe(1);
      await expect.poll(modern.updates, { timeout: 20_000 }).toBe(1);
      const sessions = initializes();

      // The upstream forgets every session: the next call opens a new one, which must be subscribed again.
      await fixture.forgetMcpSessions();
      await expect.poll(() => touch(classic.client), { timeout: 15_000 }).toContain('touched');
      expect(initializes()).toBeGreaterThan(sessions);
      await expect.poll(classic.updates, { timeout: 20_000 }).toBe(2);
      await expect.poll(modern.updates, { timeout: 20_000 }).toBe(2);
    } finally {
      await listening.close();
    }
    // The 2025 session still holds the subscription; the listen stream's ended with it.
    expect(await touch(classic.client)).toContain('touched');
    await expect.poll(classic.updates, { timeout: 20_000 }).toBe(3);
    expect(modern.updates()).toBe(2);
  }, 90_000);
});
