// Security: when `serve --http` acts as each caller upstream (`identity = "caller"`: by token exchange,
// by the caller's own login, by identity assertion), no credential involved — the callers' inbound
// tokens, the exchanged, asserted and logged-in upstream tokens, ID-JAGs, refresh tokens, the gateway's
// client secrets, the store's sealing key — reaches the log file, the OTLP traces, the audit trail, any
// file under the home but the sealed caller-credential store (which holds none in plain text), the
// status page, /metrics, a stdio server's environment or the CLI's output. The built CLI at debug log
// level against the OAuth fixture.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { callerClient, presentedTokens, signIn, whoami } from '../gateway/caller-harness.js';
import { CHAOS, NODE } from './fault-cases.js';
import { allCredentials as allOf, homeFiles, leaks, secret, STORE_FOLDER } from './caller-credential-leaks.js';

const GATEWAY_SECRET = secret('gateway-client-secret');
const WRONG_SECRET = secret('wrong-client-secret');
const STORE_KEY = randomBytes(32).toString('base64');
const OPERATOR_TOKEN = secret('operator');
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

const outcome = (c: Client, name: string) =>
  c.callTool({ name, arguments: {} }).then(
    (r) => JSON.stringify(r.content),
    (err: unknown) => (err as Error).message,
  );

describe('security: upstream credentials of callers (serve --http, identity = "caller")', { timeout: 180_000 }, () => {
  let fixture: OAuthFixture;
  let receiver: OtlpReceiver;
  let secrets: string;
  let exchangePort: number;
  const homes: string[] = [];
  const clients: Client[] = [];
  const running: ServeProcess[] = [];

  beforeAll(async () => {
    requireBuild();
    receiver = await startOtlpReceiver();
    exchangePort = await freePort();
    fixture = await startOAuthFixture({
      jwt: { audience: `http://127.0.0.1:${exchangePort}/mcp` },
      preRegistered: { clientId: 'switchboard-gateway', clientSecret: GATEWAY_SECRET },
      idp: { clientId: 'switchboard', mcpClientId: 'switchboard-gateway' },
    });
    secrets = await tempDir('sb-caller-secret-files-');
    await writeFile(path.join(secrets, 'operator-token'), `${OPERATOR_TOKEN}\n`, { mode: 0o600 });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await Promise.all(running.map((s) => s.stop()));
    await fixture?.close();
    await receiver?.close();
    for (const home of [...homes, secrets]) if (home) await removeTree(home);
  });

  /** A `serve --http` at debug level with OTLP export on, `servers` plus a stdio server dumping its environment. */
  async function startGateway(port: number, servers: string, serverAuth: string) {
    const home = await tempDir('sb-caller-secrets-');
    homes.push(home);
    await mkdir(path.join(home, 'work'));
    const local = `[mcp_servers.local]\ncommand = ${JSON.stringify(NODE)}\nargs = [${JSON.stringify(CHAOS)}, "--process-tools"]\n`;
    await writeFile(path.join(home, 'config.toml'), `${servers}\n${local}\n[store]\ncredentials_key_env_var = "SB_KEY"\n\n[server_auth]\n${serverAuth}\n`);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      SWITCHBOARD_HOME: home,
      SWITCHBOARD_LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      GATEWAY_CLIENT_SECRET: GATEWAY_SECRET,
      WRONG_SECRET,
      SB_KEY: STORE_KEY,
    };
    const serve = await spawnServe(['--http', `127.0.0.1:${port}`, '--token-file', path.join(secrets, 'operator-token')], { env, cwd: path.join(home, 'work') });
    running.push(serve);
    return { home, serve, url: `http://127.0.0.1:${port}/mcp`, spansFrom: receiver.spans.length };
  }

  /** Reads the stdio server's environment, the status page and metrics, stops the gateway, and finds no credential anywhere. */
  async function expectNoLeaks(run: { home: string; serve: ServeProcess; url: string; spansFrom: number }, caller: Client, credentials: string[], outputs: string[]): Promise<void> {
    const local = await caller.callTool({ name: 'mcp__local__whoami', arguments: {} });
    const childEnv = (JSON.parse((local.content as { text: string }[])[0]!.text) as { env: Record<string, string> }).env;
    expect(childEnv.PATH).toBeDefined();
    const origin = new URL(run.url).origin;
    const auth = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const status = await (await fetch(`${origin}/ops/status`, { headers: auth })).text();
    expect(status).toContain('"caller_connections"');
    const metrics = await (await fetch(`${origin}/metrics`, { headers: auth })).text();
    expect(metrics).toContain('switchboard_upstream_caller_connections');
    const audit = path.join(run.home, 'log', 'audit.jsonl');
    await expect.poll(async () => (existsSync(audit) ? await readFile(audit, 'utf8') : ''), { timeout: 10_000 }).toContain('"identity"');
    // Traces were exported, with the upstream calls (so a credential in a span attribute would have been seen).
    const spans = () => receiver.spans.slice(run.spansFrom);
    await expect.poll(() => spans().filter((s) => s.kind === 3).length, { timeout: 10_000 }).toBeGreaterThan(0);
    // Stopped, the gateway has flushed its log and closed its upstream connections.
    await run.serve.stop();

    // The matcher finds a credential where there is one.
    expect(leaks(`x ${credentials[0]} y`, credentials)).toEqual([credentials[0]]);
    const files = await homeFiles(run.home);
    // A detailed log (the refused exchange is logged at debug), so a token in it would be found.
    expect(files[path.join('log', 'switchboard.log')]).toContain('"level":"debug"');
    expect(Object.keys(files)).toContain(path.join('log', 'audit.jsonl'));
    for (const [file, text] of Object.entries(files)) expect(leaks(text, credentials), file).toEqual([]);
    expect(leaks(JSON.stringify(receiver.spans), credentials), 'spans').toEqual([]);
    expect(leaks(status, credentials), 'status').toEqual([]);
    expect(leaks(metrics, credentials), 'metrics').toEqual([]);
    expect(leaks(JSON.stringify(childEnv), credentials), 'stdio server environment').toEqual([]);
    for (const name of ['GATEWAY_CLIENT_SECRET', 'WRONG_SECRET', 'SB_KEY']) expect(childEnv[name], name).toBeUndefined();
    expect(leaks(run.serve.stdout() + run.serve.stderr(), credentials), 'output').toEqual([]);
    for (const [i, text] of outputs.entries()) expect(leaks(text, credentials), `tool result ${i}`).toEqual([]);
  }

  const allCredentials = (callerTokens: string[]) => allOf(fixture, callerTokens, [GATEWAY_SECRET, WRONG_SECRET, STORE_KEY]);

  it('by token exchange and by the caller\'s own login: never in the log, traces, audit, home, status, metrics, a child environment or output', async () => {
    const run = await startGateway(
      exchangePort,
      ['team', 'broken']
        .map((name) => `[mcp_servers.${name}]\nurl = "${fixture.mcpUrl}"\nidentity = "caller"\ntoken_exchange = { token_endpoint = "${fixture.issuer}/token", resource = "${fixture.mcpUrl}", client_id = "switchboard-gateway", client_secret_env_var = "${name === 'team' ? 'GATEWAY_CLIENT_SECRET' : 'WRONG_SECRET'}" }\n`)
        .join('\n') + `\n[mcp_servers.notes]\nurl = "${fixture.mcpUrl}"\nidentity = "caller"\n`,
      `issuer = "${fixture.issuer}"\naudience = "http://127.0.0.1:${exchangePort}/mcp"`,
    );
    const callerTokens: string[] = [];
    const outputs: string[] = [];
    const callers: Client[] = [];
    const from = { mcp: fixture.requestsTo('/mcp').length, token: fixture.requestsTo('/token').length };
    for (const sub of ['alice', 'bob']) {
      const token = await fixture.mintAccessToken({ sub, client_id: `cli-${sub}` });
      callerTokens.push(token);
      const client = await callerClient(run.url, token, clients);
      callers.push(client);
      expect(await whoami(client, 'team')).toBe(sub);
      // The caller's own login: the link in the error (this client cannot open URLs), then the call as itself.
      const refused = await outcome(client, 'mcp__notes__whoami');
      const link = /Open (\S+) to sign in/.exec(refused)?.[1];
      expect(link, refused).toBeDefined();
      expect(await signIn(link!, sub)).toMatch(/^200 /);
      expect(await whoami(client, 'notes')).toBe(sub);
      // A refused exchange (the wrong client secret) names the table to check, and nothing more.
      const broken = await outcome(client, 'mcp__broken__whoami');
      expect(broken).toContain('[mcp_servers.broken.token_exchange]');
      outputs.push(refused, broken);
    }
    // The check is only worth something if the run produced each kind of credential.
    const grants = fixture.requestsTo('/token').slice(from.token).map((r) => r.params.grant_type);
    expect(grants.filter((g) => g === EXCHANGE).length).toBeGreaterThanOrEqual(2);
    expect(grants.filter((g) => g === 'authorization_code').length).toBe(2);
    expect(new Set(presentedTokens(fixture, from.mcp).map((t) => fixture.subjectOf(t)))).toEqual(new Set(['alice', 'bob']));
    expect(new Set(presentedTokens(fixture, from.mcp)).size).toBe(4); // two exchanged and two logged-in tokens
    const credentials = allCredentials(callerTokens);
    await expectNoLeaks(run, callers[0]!, credentials, outputs);

    // The sealed store holds the two logins (with their refresh tokens), none of them in plain text.
    const store = (await readdir(path.join(run.home, STORE_FOLDER), { recursive: true })).filter((f) => f.endsWith('.json'));
    expect(store.length).toBeGreaterThanOrEqual(2);
    for (const f of store) expect(leaks(await readFile(path.join(run.home, STORE_FOLDER, f), 'latin1'), credentials), f).toEqual([]);
  });

  it('by identity assertion: never in the log, traces, audit, home, status, metrics, a child environment or output', async () => {
    const run = await startGateway(
      await freePort(),
      `[mcp_servers.wiki]\nurl = "${fixture.mcpUrl}"\nidentity = "caller"\n\n[mcp_servers.wiki.oauth]\ngrant_type = "identity_assertion"\nclient_id = "switchboard-gateway"\nclient_secret_env_var = "GATEWAY_CLIENT_SECRET"\n\n[mcp_servers.wiki.oauth.idp]\nissuer = "${fixture.idpIssuer}"\nclient_id = "switchboard"\n` +
        `\n[mcp_servers.broken]\nurl = "${fixture.mcpUrl}"\nidentity = "caller"\ntoken_exchange = { token_endpoint = "${fixture.issuer}/token", resource = "${fixture.mcpUrl}", client_id = "switchboard-gateway", client_secret_env_var = "WRONG_SECRET" }\n`,
      `issuer = "${fixture.idpIssuer}"\naudience = "switchboard"`,
    );
    const from = { mcp: fixture.requestsTo('/mcp').length, idp: fixture.requestsTo('/idp/token').length };
    const callerTokens: string[] = [];
    const callers: Client[] = [];
    const outputs: string[] = [];
    for (const user of ['alice@corp.test', 'bob@corp.test']) {
      const token = await fixture.mintIdToken(user);
      callerTokens.push(token);
      const client = await callerClient(run.url, token, clients);
      callers.push(client);
      expect(await whoami(client, 'wiki')).toBe(user);
      const broken = await outcome(client, 'mcp__broken__whoami');
      expect(broken).toContain('[mcp_servers.broken.token_exchange]');
      outputs.push(broken);
    }
    // Each caller's ID token went to the IdP, its ID-JAG to the token endpoint, its access token upstream.
    expect(new Set(fixture.requestsTo('/idp/token').slice(from.idp).map((r) => r.params.subject_token))).toEqual(new Set(callerTokens));
    expect(fixture.requestsTo('/token').filter((r) => r.params.assertion).length).toBeGreaterThanOrEqual(2);
    expect(new Set(presentedTokens(fixture, from.mcp).map((t) => fixture.subjectOf(t)))).toEqual(new Set(['alice@corp.test', 'bob@corp.test']));
    await expectNoLeaks(run, callers[0]!, allCredentials(callerTokens), outputs);
  });
});
