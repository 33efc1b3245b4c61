// `switchboard serve --http` acting as each caller upstream by token exchange (RFC 8693): the built
// CLI, the real OAuth fixture as the callers' issuer, the token endpoint and the OAuth-protected
// upstream (its `whoami` tool answers whom the presented token stands for). Two callers get their
// own answers in both protocol revisions, concurrently; the operator (the static token) is refused
// rather than lent a credential, though the gateway holds one for the same upstream (a second,
// operator-identity server entry); each caller's exchange is cached; a refused exchange says where
// to look; the audit trail names the kind.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { requireBuild } from '../support/mcp-server-harness.js';
import { removeTree } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { servePlace, spawnServe, type ServeProcess } from './serve-process.js';
import { callerClient, EXCHANGE_CLIENT, operatorToken, presentedTokens, whoami as whoamiOf } from './caller-harness.js';

const STATIC_TOKEN = 'static-token-of-the-operator-0123';
const GATEWAY_SECRET = EXCHANGE_CLIENT.clientSecret;

describe('switchboard serve --http: identity = "caller" by token exchange', () => {
  let fixture: OAuthFixture;
  let serve: ServeProcess;
  let home: string;
  let mcpUrl: string;
  let operatorUpstreamToken: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    requireBuild();
    const place = await servePlace('sb-caller-exchange-');
    const { port, work } = place;
    ({ home, mcpUrl } = place);
    fixture = await startOAuthFixture({ jwt: { audience: mcpUrl }, preRegistered: EXCHANGE_CLIENT });
    // The operator's own credential for the same upstream (a client_credentials token of the gateway).
    operatorUpstreamToken = await operatorToken(fixture);
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.ops]
url = "${fixture.mcpUrl}"
bearer_token_env_var = "OPERATOR_UPSTREAM_TOKEN"

[mcp_servers.broken]
url = "${fixture.mcpUrl}"
identity = "caller"
token_exchange = { token_endpoint = "${fixture.issuer}/token", resource = "${fixture.mcpUrl}", client_id = "switchboard-gateway", client_secret_env_var = "WRONG_SECRET" }

[mcp_servers.team]
url = "${fixture.mcpUrl}"
identity = "caller"

[mcp_servers.team.token_exchange]
token_endpoint = "${fixture.issuer}/token"
resource = "${fixture.mcpUrl}"
client_id = "switchboard-gateway"
client_secret_env_var = "GATEWAY_CLIENT_SECRET"

[server_auth]
issuer = "${fixture.issuer}"
audience = "${mcpUrl}"
`,
    );
    await writeFile(path.join(home, 'token'), `${STATIC_TOKEN}\n`);
    serve = await spawnServe(['--http', `127.0.0.1:${port}`, '--token-file', path.join(home, 'token')], {
      env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_LOG_LEVEL: 'debug', GATEWAY_CLIENT_SECRET: GATEWAY_SECRET, WRONG_SECRET: 'not-the-secret', OPERATOR_UPSTREAM_TOKEN: operatorUpstreamToken },
      cwd: work,
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  const connect = (token: string, modern = false) => callerClient(mcpUrl, token, clients, modern);
  const whoami = (c: Client, server = 'team') => whoamiOf(c, server);
  const failure = (c: Client, name: string) =>
    c.callTool({ name, arguments: {} }).then(
      (r) => ({ isError: r.isError === true, text: JSON.stringify(r.content) }),
      (err: unknown) => ({ isError: true, text: (err as Error).message }),
    );
  const presented = (from = 0) => presentedTokens(fixture, from);

  it('gives two callers their own upstream identity, in both revisions and under concurrency', async () => {
    const from = fixture.requestsTo('/mcp').length;
    const alice = await connect(await fixture.mintAccessToken({ sub: 'alice', client_id: 'cli-a' }));
    const bob = await connect(await fixture.mintAccessToken({ sub: 'bob', client_id: 'cli-b' }), true);
    expect(await whoami(alice)).toBe('alice');
    expect(await whoami(bob)).toBe('bob');
    expect([alice.getProtocolEra(), bob.getProtocolEra()]).toEqual(['legacy', 'modern']);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? whoami(alice).then((s) => ['alice', s]) : whoami(bob).then((s) => ['bob', s]))));
    for (const [asked, got] of answers) expect(got).toBe(asked);
    // The operator's identity is there (through the operator-identity entry), and never used for them.
    expect(await whoami(alice, 'ops')).toBe('user-of-switchboard-gateway');
    const tokens = presented(from);
    const callers = tokens.filter((t) => t !== operatorUpstreamToken);
    expect(new Set(callers.map((t) => fixture.subjectOf(t)))).toEqual(new Set(['alice', 'bob']));
    expect(tokens.filter((t) => t === operatorUpstreamToken).length).toBeGreaterThan(0);
  }, 60_000);

  it('exchanges once per caller and reuses the exchanged token until it nears expiry', async () => {
    const before = fixture.stats.asTokenExchanges;
    const carol = await connect(await fixture.mintAccessToken({ sub: 'carol', client_id: 'cli-c' }));
    for (let i = 0; i < 5; i++) expect(await whoami(carol)).toBe('carol');
    expect(fixture.stats.asTokenExchanges - before).toBe(1);
    const exchange = fixture.requestsTo('/token').at(-1)!;
    expect(exchange.params.grant_type).toBe('urn:ietf:params:oauth:grant-type:token-exchange');
    expect(exchange.params.resource).toBe(fixture.mcpUrl);
  }, 60_000);

  it('refuses the operator (the static token) instead of lending it a credential', async () => {
    const operator = await connect(STATIC_TOKEN);
    const from = fixture.requestsTo('/mcp').length;
    const outcome = await failure(operator, 'mcp__team__whoami');
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain('acts as each caller');
    expect(outcome.text).toContain('OAuth access token');
    expect(presented(from)).toEqual([]);
  }, 60_000);

  it('refuses a caller whose exchange is refused, naming the table to check, and never falls back', async () => {
    const erin = await connect(await fixture.mintAccessToken({ sub: 'erin', client_id: 'cli-e' }));
    const from = fixture.requestsTo('/mcp').length;
    const outcome = await failure(erin, 'mcp__broken__whoami');
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain('[mcp_servers.broken.token_exchange]');
    // Her connection to `team` (same upstream) is hers; nothing went out as the operator for `broken`.
    expect(presented(from).filter((t) => fixture.subjectOf(t) !== 'erin')).toEqual([]);
  }, 60_000);

  it('shows the callers\' connections per server on the status snapshot and in the metrics, no token', async () => {
    const origin = new URL(mcpUrl).origin;
    const auth = { authorization: `Bearer ${STATIC_TOKEN}` };
    const status = await (await fetch(`${origin}/ops/status`, { headers: auth })).text();
    const team = (JSON.parse(status) as { upstreams: { name: string; identity?: string; caller_connections?: number }[] }).upstreams.find((u) => u.name === 'team');
    // alice, bob, carol and erin connected to it (idle connections live 5 minutes).
    expect(team).toMatchObject({ identity: 'caller', caller_connections: 4 });
    const metrics = await (await fetch(`${origin}/metrics`, { headers: auth })).text();
    expect(metrics).toContain('switchboard_upstream_caller_connections{server="team"} 4');
    for (const t of [...presentedTokens(fixture), ...fixture.issuedTokens()]) expect(status + metrics).not.toContain(t);
  });

  it('audits the kind of identity each call used; no token reaches the audit trail or the log', async () => {
    await new Promise((r) => setTimeout(r, 300));
    const lines = (await readFile(path.join(home, 'log', 'audit.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = lines.filter((l) => l.method === 'tools/call' && l.upstream === 'team');
    expect(calls.filter((l) => l.subject === 'alice' && l.outcome === 'ok').every((l) => l.identity === 'token_exchange')).toBe(true);
    expect(calls.some((l) => l.subject === 'bob' && l.identity === 'token_exchange')).toBe(true);
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    const tokens = [...presented(), ...fixture.issuedTokens()];
    expect(tokens.length).toBeGreaterThan(0);
    const logDir = path.join(home, 'log');
    const logFiles = (await readdir(logDir)).filter((f) => !f.startsWith('audit'));
    expect(logFiles.length).toBeGreaterThan(0);
    const logs = [serve.stdout(), serve.stderr(), ...(await Promise.all(logFiles.map((f) => readFile(path.join(logDir, f), 'utf8'))))].join('\n');
    expect(logs).toContain('"level":"debug"'); // a real, detailed log, so a token in it would be found
    for (const t of tokens) {
      expect(text).not.toContain(t);
      expect(logs).not.toContain(t);
    }
    expect(logs).not.toContain(GATEWAY_SECRET);
  });
});
