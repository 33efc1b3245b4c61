// Security: when `mcp-server --http` acts as each caller upstream (its agent, driven by the fake
// Responses model, calls `identity = "caller"` servers: `team` by token exchange, `own` by the
// caller's own login), no credential involved — the callers' inbound tokens, the exchanged and
// logged-in upstream tokens, refresh tokens, the gateway's client secrets, the store's sealing key,
// the operator's token — reaches the log file, the rollout files or anything else under the home
// but the sealed caller-credential store (which holds none in plain text), the OTLP traces, the audit
// trail, the status snapshot, /metrics, the environment of a stdio server or of a command the agent
// runs, the model or the CLI's output.
// The status page, its snapshot and /metrics count the callers' connections per server, as
// `serve --http`'s do. The built
// CLI at debug log level against the OAuth fixture.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { responsesTurn, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../fixtures/fake-model-server.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { makeServerHome, spawnHttpServer, type ServerHome } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { freePort } from '../support/free-port.mjs';
import { EXCHANGE_CLIENT, exchangeServerToml, presentedTokens, signIn } from '../gateway/caller-harness.js';
import { firstStatusFrame } from '../gateway/serve-process.js';
import { CHAOS, NODE } from './fault-cases.js';
import { allCredentials, homeFiles, leaks, secret, STORE_FOLDER } from './caller-credential-leaks.js';

const GATEWAY_SECRET = secret('gateway-client-secret');
const WRONG_SECRET = secret('wrong-client-secret');
const STORE_KEY = randomBytes(32).toString('base64');
const OPERATOR_TOKEN = secret('operator');
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
type CodexResult = { isError?: boolean; content: { text: string }[] };

describe('security: upstream credentials of callers (mcp-server --http, identity = "caller")', { timeout: 180_000 }, () => {
  let model: FakeModelServer;
  let fixture: OAuthFixture;
  let receiver: OtlpReceiver;
  let sh: ServerHome;
  let server: Awaited<ReturnType<typeof spawnHttpServer>>;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    model = await startFakeModelServer();
    receiver = await startOtlpReceiver();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    fixture = await startOAuthFixture({ jwt: { audience: url }, preRegistered: { clientId: EXCHANGE_CLIENT.clientId, clientSecret: GATEWAY_SECRET } });
    sh = await makeServerHome(
      model,
      `${exchangeServerToml('team', fixture)}
${exchangeServerToml('broken', fixture, 'WRONG_SECRET')}
[mcp_servers.own]
url = "${fixture.mcpUrl}"
identity = "caller"

[mcp_servers.local]
command = ${JSON.stringify(NODE)}
args = [${JSON.stringify(CHAOS)}, "--process-tools"]

[store]
credentials_key_env_var = "SB_KEY"

[server_auth]
issuer = "${fixture.issuer}"
audience = "${url}"
`,
    );
    const tokenFile = path.join(sh.home, 'operator-token');
    await writeFile(tokenFile, `${OPERATOR_TOKEN}\n`, { mode: 0o600 });
    server = await spawnHttpServer(sh, ['--http', `127.0.0.1:${port}`, '--token-file', tokenFile], {
      GATEWAY_CLIENT_SECRET: GATEWAY_SECRET,
      WRONG_SECRET,
      SB_KEY: STORE_KEY,
      SWITCHBOARD_LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await server?.stop();
    await sh?.cleanup();
    await fixture?.close();
    await receiver?.close();
    await model?.close();
  });

  /** A caller's client that approves the agent's commands (a form elicitation) and cannot open URLs (so a sign-in link reaches the model). */
  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { decision: 'approved' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }
  /** One agent turn of `caller` in which the model calls `tool` once: what the tool answered the model. */
  async function agentCalls(caller: Client, tool: string, args: Record<string, unknown> = {}): Promise<string> {
    model.enqueue(responsesTurn({ calls: [{ id: `call_${randomBytes(4).toString('hex')}`, name: tool, args }] }), responsesTurn({ text: 'done' }));
    const r = (await caller.callTool({ name: 'codex', arguments: { prompt: `call ${tool}` } }, { timeout: 90_000 })) as unknown as CodexResult;
    expect(r.isError, r.content[0]?.text).not.toBe(true);
    return toolOutput(model.requests.at(-1)!);
  }
  const toolOutput = (req: RecordedRequest) => {
    const outputs = (req.body.input as { type: string; output?: unknown }[]).filter((i) => i.type === 'function_call_output');
    const last = outputs.at(-1)?.output;
    return typeof last === 'string' ? last : JSON.stringify(last);
  };
  const subjectIn = (output: string) => (JSON.parse(output) as { subject?: string }).subject;

  it('by token exchange and by the caller\'s own login: never in the log, rollouts, traces, audit, status, metrics, a child\'s environment, the model or output', async () => {
    const callerTokens: string[] = [];
    const from = { mcp: fixture.requestsTo('/mcp').length, token: fixture.requestsTo('/token').length };
    for (const sub of ['alice', 'bob']) {
      const token = await fixture.mintAccessToken({ sub, client_id: `cli-${sub}` });
      callerTokens.push(token);
      const caller = await connect(token);
      expect(subjectIn(await agentCalls(caller, 'mcp__team__whoami'))).toBe(sub);
      // The caller's own login: its client cannot open URLs, so the model sees the link; signed in, the agent's call goes on as the caller.
      const refused = await agentCalls(caller, 'mcp__own__whoami');
      const link = /Open (\S+) to sign in/.exec(refused)?.[1];
      expect(link, refused).toBeDefined();
      expect(await signIn(link!, sub)).toMatch(/^200 /);
      expect(subjectIn(await agentCalls(caller, 'mcp__own__whoami'))).toBe(sub);
      // A refused exchange (the wrong client secret) names the table to check, and nothing more.
      expect(await agentCalls(caller, 'mcp__broken__whoami')).toContain('[mcp_servers.broken.token_exchange]');
    }
    // The check is only worth something if the run produced each kind of credential.
    const grants = fixture.requestsTo('/token').slice(from.token).map((r) => r.params.grant_type);
    expect(grants.filter((g) => g === EXCHANGE).length).toBeGreaterThanOrEqual(2);
    expect(grants.filter((g) => g === 'authorization_code').length).toBe(2);
    expect(new Set(presentedTokens(fixture, from.mcp).map((t) => fixture.subjectOf(t)))).toEqual(new Set(['alice', 'bob']));
    expect(new Set(presentedTokens(fixture, from.mcp)).size).toBe(4); // two exchanged and two logged-in tokens

    // A stdio server the agent starts: its environment, as the agent's tool call saw it.
    const local = JSON.parse(await agentCalls(clients[0]!, 'mcp__local__whoami')) as { text: string }[];
    const childEnv = (JSON.parse(local[0]!.text) as { env: Record<string, string> }).env;
    expect(childEnv.PATH).toBeDefined();
    // A command the agent runs: its environment, as the model saw it.
    const commandEnv = await agentCalls(clients[1]!, 'shell', { command: ['env'] });
    expect(commandEnv).toContain('PATH=');

    // The status snapshot and the metrics count the callers' connections per server.
    const origin = new URL(url).origin;
    const auth = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const status = await (await fetch(`${origin}/ops/status`, { headers: auth })).text();
    const upstreams = (JSON.parse(status) as { upstreams: { name: string; identity?: string; caller_connections?: number }[] }).upstreams;
    expect(upstreams.filter((u) => u.name !== 'local')).toEqual([
      expect.objectContaining({ name: 'team', identity: 'caller', caller_connections: 2 }),
      expect.objectContaining({ name: 'broken', identity: 'caller', caller_connections: 0 }),
      expect.objectContaining({ name: 'own', identity: 'caller', caller_connections: 2 }),
    ]);
    // The status page's live feed: each server that acts as each caller with its count.
    const page = await firstStatusFrame(`${origin}/ops/events`, auth);
    expect(page.match(/per-caller.{0,200}?2 caller connections/gs)?.length, page).toBe(2);
    expect(page).toMatch(/per-caller.{0,200}?0 caller connections/s);
    const metrics = await (await fetch(`${origin}/metrics`, { headers: auth })).text();
    expect(metrics).toContain('switchboard_upstream_caller_connections{server="team"} 2');
    expect(metrics).toContain('switchboard_upstream_caller_connections{server="own"} 2');

    const audit = path.join(sh.home, 'log', 'audit.jsonl');
    await expect.poll(async () => (existsSync(audit) ? await readFile(audit, 'utf8') : ''), { timeout: 10_000 }).toContain('"codex"');
    // Traces were exported, with the agent's upstream calls (so a credential in a span attribute would have been seen).
    await expect.poll(() => receiver.spans.filter((s) => s.kind === 3).length, { timeout: 10_000 }).toBeGreaterThan(0);
    // Stopped, the server has flushed its log, its rollouts and closed its upstream connections.
    await server.stop();

    const credentials = allCredentials(fixture, callerTokens, [GATEWAY_SECRET, WRONG_SECRET, STORE_KEY, OPERATOR_TOKEN]);
    // The matcher finds a credential where there is one.
    expect(leaks(`x ${credentials[0]} y`, credentials)).toEqual([credentials[0]]);
    const files = await homeFiles(sh.home);
    // A detailed log (the refused exchange is logged at debug) and the threads' rollouts, so a token in either would be found.
    expect(files[path.join('log', 'switchboard.log')]).toContain('"level":"debug"');
    expect(Object.keys(files).filter((f) => f.includes('rollout-')).length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(files)).toContain(path.join('log', 'audit.jsonl'));
    // The operator's token file is the one place its token belongs.
    for (const [file, text] of Object.entries(files)) if (file !== 'operator-token') expect(leaks(text, credentials), file).toEqual([]);
    expect(leaks(JSON.stringify(receiver.spans), credentials), 'spans').toEqual([]);
    expect(leaks(status, credentials), 'status').toEqual([]);
    expect(leaks(page, credentials), 'status page').toEqual([]);
    expect(leaks(metrics, credentials), 'metrics').toEqual([]);
    expect(leaks(JSON.stringify(childEnv), credentials), 'stdio server environment').toEqual([]);
    expect(leaks(commandEnv, credentials), 'a command\'s environment').toEqual([]);
    for (const name of ['GATEWAY_CLIENT_SECRET', 'WRONG_SECRET', 'SB_KEY']) {
      expect(childEnv[name], name).toBeUndefined();
      expect(commandEnv, name).not.toContain(`${name}=`);
    }
    expect(leaks(JSON.stringify(model.requests), credentials), 'the model').toEqual([]);
    expect(leaks(server.output.stderr, credentials), 'output').toEqual([]);

    // The sealed store holds the two logins (with their refresh tokens), none of them in plain text.
    const store = (await readdir(path.join(sh.home, STORE_FOLDER), { recursive: true })).filter((f) => f.endsWith('.json'));
    expect(store.length).toBeGreaterThanOrEqual(2);
    for (const f of store) expect(leaks(await readFile(path.join(sh.home, STORE_FOLDER, f), 'latin1'), credentials), f).toEqual([]);
  });
});
