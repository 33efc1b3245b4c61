// `switchboard serve --http` acting as each caller by enterprise-managed authorization
// (oauth.grant_type = "identity_assertion" with identity = "caller"): the built CLI, the OAuth
// fixture's IdP as the callers' issuer, each caller's own ID token exchanged at the IdP for an ID-JAG
// and that for an access token of the upstream. Two callers get their own `whoami` answers; the
// IdP sees each caller's own token as the subject.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { requireBuild } from '../support/mcp-server-harness.js';
import { removeTree } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { servePlace, spawnServe, type ServeProcess } from './serve-process.js';
import { callerClient, presentedTokens, whoami as whoamiOf } from './caller-harness.js';

const WIKI_SECRET = 'wiki-client-secret-8910';

describe('switchboard serve --http: identity = "caller" by identity assertion', () => {
  let fixture: OAuthFixture;
  let serve: ServeProcess;
  let home: string;
  let mcpUrl: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    requireBuild();
    const place = await servePlace('sb-caller-assertion-');
    const { port, work } = place;
    ({ home, mcpUrl } = place);
    fixture = await startOAuthFixture({ idp: { clientId: 'switchboard', mcpClientId: 'switchboard-wiki' }, preRegistered: { clientId: 'switchboard-wiki', clientSecret: WIKI_SECRET } });
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.wiki]
url = "${fixture.mcpUrl}"
identity = "caller"

[mcp_servers.wiki.oauth]
grant_type = "identity_assertion"
client_id = "switchboard-wiki"
client_secret_env_var = "WIKI_SECRET"

[mcp_servers.wiki.oauth.idp]
issuer = "${fixture.idpIssuer}"
client_id = "switchboard"

[server_auth]
issuer = "${fixture.idpIssuer}"
audience = "switchboard"
`,
    );
    serve = await spawnServe(['--http', `127.0.0.1:${port}`], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, WIKI_SECRET }, cwd: work });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  const connect = (token: string, modern = false) => callerClient(mcpUrl, token, clients, modern);
  const whoami = (c: Client) => whoamiOf(c, 'wiki');

  it('gives each caller its own identity upstream, asserted from its own token', async () => {
    const aliceToken = await fixture.mintIdToken('alice@corp.test');
    const bobToken = await fixture.mintIdToken('bob@corp.test');
    const alice = await connect(aliceToken);
    const bob = await connect(bobToken, true);
    const answers = await Promise.all([whoami(alice), whoami(bob), whoami(alice), whoami(bob)]);
    expect(answers).toEqual(['alice@corp.test', 'bob@corp.test', 'alice@corp.test', 'bob@corp.test']);
    const subjects = fixture.requestsTo('/idp/token').map((r) => r.params.subject_token);
    expect(new Set(subjects)).toEqual(new Set([aliceToken, bobToken]));
    expect(new Set(presentedTokens(fixture).map((t) => fixture.subjectOf(t)))).toEqual(new Set(['alice@corp.test', 'bob@corp.test']));
  }, 60_000);
});
