// What the tests of acting as each caller upstream share: a caller's client of the gateway (by its
// bearer token, in either protocol revision), the `whoami` answer of an upstream through it, and the
// tokens the OAuth fixture's upstream was presented (to tell whose identity reached it), and the
// caller's user signing in to the upstream through the gateway's login link; and a `serve --http`
// acting as each caller by token exchange, in front of the fixture's upstream.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect } from 'vitest';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from '../fixtures/oauth-fixture.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { removeTree } from '../support/temp.js';
import { servePlace, spawnServe, type ServeProcess } from './serve-process.js';

/** The gateway's client at the fixture's token endpoint (token exchange), and its secret. */
export const EXCHANGE_CLIENT = { clientId: 'switchboard-gateway', clientSecret: 'gateway-client-secret-4567' };

/** The operator's own credential for the fixture's upstream: a client_credentials token of the gateway's client. */
export async function operatorToken(fixture: OAuthFixture, client: { clientId: string; clientSecret: string } = EXCHANGE_CLIENT): Promise<string> {
  const issued = await fetch(`${fixture.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: fixture.mcpUrl }),
  });
  return ((await issued.json()) as { access_token: string }).access_token;
}

/** `[mcp_servers.<name>]` reaching the fixture's upstream as each caller by token exchange, its client secret in the env var `secretEnv`. */
export function exchangeServerToml(name: string, fixture: OAuthFixture, secretEnv = 'GATEWAY_CLIENT_SECRET'): string {
  return `[mcp_servers.${name}]
url = "${fixture.mcpUrl}"
identity = "caller"
token_exchange = { token_endpoint = "${fixture.issuer}/token", resource = "${fixture.mcpUrl}", client_id = "${EXCHANGE_CLIENT.clientId}", client_secret_env_var = "${secretEnv}" }
`;
}

/** A `serve --http` whose one server `team` acts as each caller by token exchange, the fixture (started with `options`) its callers' issuer and its upstream. */
export async function startExchangeGateway(prefix: string, options: OAuthFixtureOptions): Promise<{ fixture: OAuthFixture; serve: ServeProcess; mcpUrl: string; close(): Promise<void> }> {
  const { home, work, port, mcpUrl } = await servePlace(prefix);
  const fixture = await startOAuthFixture({ jwt: { audience: mcpUrl }, preRegistered: EXCHANGE_CLIENT, ...options });
  await writeFile(path.join(home, 'config.toml'), `${exchangeServerToml('team', fixture)}
[server_auth]
issuer = "${fixture.issuer}"
audience = "${mcpUrl}"
`);
  const serve = await spawnServe(['--http', `127.0.0.1:${port}`], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, GATEWAY_CLIENT_SECRET: EXCHANGE_CLIENT.clientSecret }, cwd: work });
  return {
    fixture,
    serve,
    mcpUrl,
    async close() {
      await serve.stop();
      await fixture.close();
      await removeTree(home);
    },
  };
}

/** A client of the gateway at `url` presenting `token`; `modern`: it negotiates 2026-07-28. Kept in `clients` for closing. */
export async function callerClient(url: string, token: string, clients: Client[], modern = false): Promise<Client> {
  const client = new Client({ name: 'caller', version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

/** Whom the upstream `server` says the presented token stands for. */
export async function whoami(client: Client, server: string): Promise<string> {
  return ((await client.callTool({ name: `mcp__${server}__whoami`, arguments: {} })).structuredContent as { subject: string }).subject;
}

/** The bearer tokens the fixture's MCP endpoint was presented since its request number `from`. */
export function presentedTokens(fixture: OAuthFixture, from = 0): string[] {
  return fixture
    .requestsTo('/mcp')
    .slice(from)
    .map((r) => r.authorization?.replace(/^Bearer /, ''))
    .filter((t): t is string => t !== undefined);
}

/** The user's browser: opens the gateway's sign-in link, signs in at the fixture as `user`, follows the callback with the cookie it was given. */
export async function signIn(link: string, user: string): Promise<string> {
  const opened = await fetch(link, { redirect: 'manual' });
  expect(opened.status).toBe(302);
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  const authorized = await fetch(opened.headers.get('location')!, { redirect: 'manual', headers: { 'x-fixture-user': user } });
  expect(authorized.status).toBe(302);
  const done = await fetch(authorized.headers.get('location')!, { redirect: 'manual', headers: { cookie } });
  return `${done.status} ${await done.text()}`;
}

/** What a client declares to be asked to open URLs (URL-mode elicitation). */
export const OPENS_URLS = { capabilities: { elicitation: { url: {} } } };

/** `client` (declaring OPENS_URLS) answers URL elicitations by signing in as `user`; each browser's outcome goes to `browsers`. */
export function signsInAs(client: Client, user: string, browsers: Promise<string>[]): void {
  client.setRequestHandler('elicitation/create', async (req) => {
    const params = req.params as { mode?: string; url?: string };
    if (params.mode !== 'url' || !params.url) return { action: 'decline' };
    browsers.push(signIn(params.url, user));
    return { action: 'accept' };
  });
}

/**
 * The suite around it runs against {@link startExchangeGateway}, started before its tests and
 * stopped after them with the clients the tests kept in `clients`. Its fields are set once started.
 */
export function useExchangeGateway(prefix: string, options: OAuthFixtureOptions): { fixture: OAuthFixture; mcpUrl: string; clients: Client[] } {
  const suite = { clients: [] as Client[] } as { fixture: OAuthFixture; mcpUrl: string; clients: Client[] };
  let gateway: Awaited<ReturnType<typeof startExchangeGateway>> | undefined;
  beforeAll(async () => {
    requireBuild();
    gateway = await startExchangeGateway(prefix, options);
    suite.fixture = gateway.fixture;
    suite.mcpUrl = gateway.mcpUrl;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(suite.clients.map((c) => c.close().catch(() => {})));
    await gateway?.close();
  });
  return suite;
}
