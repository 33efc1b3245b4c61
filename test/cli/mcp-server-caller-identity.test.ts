// `mcp-server --http` acting as each caller upstream: the built CLI serving OAuth callers
// ([server_auth], the real OAuth fixture as their issuer), the fake model making the agent call the
// `whoami` tool of the fixture's OAuth-protected upstream, reached by token exchange (`team`) or by
// the caller's own login (`own`). Each caller's thread gets its own identity's answer, alone and
// concurrently, and a continued thread stays its caller's; no token of one caller reaches the
// upstream for another; a caller who must sign in is asked by URL elicitation, or its agent's tool
// call fails with the link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { responsesTurn, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../fixtures/fake-model-server.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { makeServerHome, spawnHttpServer, type ServerHome } from '../support/mcp-server-harness.js';
import { freePort } from '../support/free-port.mjs';
import { EXCHANGE_CLIENT, OPENS_URLS, presentedTokens, signIn, signsInAs } from '../gateway/caller-harness.js';

const GATEWAY_SECRET = EXCHANGE_CLIENT.clientSecret;
type CodexResult = { isError?: boolean; content: { text: string }[]; structuredContent?: { threadId?: string } };

describe('mcp-server --http: the agent acts as each caller upstream', () => {
  let model: FakeModelServer;
  let fixture: OAuthFixture;
  let sh: ServerHome;
  let server: Awaited<ReturnType<typeof spawnHttpServer>>;
  let url: string;
  const clients: Client[] = [];
  const browsers: Promise<string>[] = [];

  beforeAll(async () => {
    model = await startFakeModelServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    fixture = await startOAuthFixture({ jwt: { audience: url }, preRegistered: EXCHANGE_CLIENT });
    sh = await makeServerHome(
      model,
      `[mcp_servers.team]
url = "${fixture.mcpUrl}"
identity = "caller"
token_exchange = { token_endpoint = "${fixture.issuer}/token", resource = "${fixture.mcpUrl}", client_id = "switchboard-gateway", client_secret_env_var = "GATEWAY_CLIENT_SECRET" }

[mcp_servers.own]
url = "${fixture.mcpUrl}"
identity = "caller"

[store]
credentials_key_env_var = "SB_KEY"

[server_auth]
issuer = "${fixture.issuer}"
audience = "${url}"
`,
    );
    server = await spawnHttpServer(sh, ['--http', `127.0.0.1:${port}`], { GATEWAY_CLIENT_SECRET: GATEWAY_SECRET, SB_KEY: Buffer.alloc(32, 7).toString('base64') });
    expect(server.url).toBe(url);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await server?.stop();
    await sh?.cleanup();
    await fixture?.close();
    await model?.close();
  });

  /** A caller's client; with `user`, it opens URL elicitations by signing in as that user. */
  async function connect(sub: string, user?: string): Promise<Client> {
    const token = await fixture.mintAccessToken({ sub, client_id: `cli-${sub}` });
    const client = new Client({ name: 'caller', version: '1.0.0' }, user ? OPENS_URLS : {});
    if (user) signsInAs(client, user, browsers);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }
  const codex = async (c: Client, name: 'codex' | 'codex-reply', args: Record<string, unknown>) => (await c.callTool({ name, arguments: args }, { timeout: 90_000 })) as unknown as CodexResult;
  const whoamiTurn = (server: string, calls = 1) => responsesTurn({ calls: Array.from({ length: calls }, (_, i) => ({ id: `call_${server}_${i}`, name: `mcp__${server}__whoami`, args: {} })) });
  /** What the model saw as the tool's outputs in `req`, and the caller the prompt names. */
  const seen = (req: RecordedRequest) => {
    const input = req.body.input as { type: string; output?: unknown; role?: string; content?: { text?: string }[] }[];
    const outputs = input.filter((i) => i.type === 'function_call_output').map((i) => (typeof i.output === 'string' ? i.output : JSON.stringify(i.output)));
    // whoami answers {subject, client}: the subject is whom the presented token stands for.
    const subjects = outputs.map((o) => (o.startsWith('{') ? (JSON.parse(o) as { subject?: string }).subject : undefined));
    const prompts = input.filter((i) => i.role === 'user').flatMap((i) => (i.content ?? []).map((c) => c.text ?? ''));
    return { outputs, subjects, prompts: prompts.filter((p) => p.startsWith('I am ')) };
  };

  it('gives each caller\'s thread its own identity upstream, alone, continued and concurrently', async () => {
    const alice = await connect('alice');
    const bob = await connect('bob');
    const from = fixture.requestsTo('/mcp').length;
    model.enqueue(whoamiTurn('team'), responsesTurn({ text: 'done alice' }));
    const a = await codex(alice, 'codex', { prompt: 'I am alice' });
    expect(a.isError, a.content[0]?.text).not.toBe(true);
    model.enqueue(whoamiTurn('team'), responsesTurn({ text: 'done bob' }));
    const b = await codex(bob, 'codex', { prompt: 'I am bob' });
    expect(b.isError, b.content[0]?.text).not.toBe(true);
    const answered = model.requests.map(seen).filter((s) => s.outputs.length > 0);
    expect(answered.map((s) => [s.prompts.at(-1), s.subjects.at(-1)])).toEqual([
      ['I am alice', 'alice'],
      ['I am bob', 'bob'],
    ]);

    // Alice continues her thread: still alice upstream.
    model.enqueue(whoamiTurn('team'), responsesTurn({ text: 'again' }));
    const again = await codex(alice, 'codex-reply', { threadId: a.structuredContent!.threadId, prompt: 'I am alice, again' });
    expect(again.isError, again.content[0]?.text).not.toBe(true);
    expect(seen(model.requests.at(-1)!).subjects.at(-1)).toBe('alice');

    // Both at once, each turn calling whoami five times: every answer is its own caller's. The two turns'
    // requests reach the model in no fixed order (one turn may finish its calls before the other's first
    // request), so each reply is chosen by the request: a turn's first asks for the calls, its second
    // (carrying their outputs) ends it.
    const before = model.requests.length;
    const step = (req: RecordedRequest) => (seen(req).outputs.length === 0 ? whoamiTurn('team', 5) : responsesTurn({ text: 'done' }));
    model.enqueue(step, step, step, step);
    const both = await Promise.all([codex(alice, 'codex', { prompt: 'I am alice' }), codex(bob, 'codex', { prompt: 'I am bob' })]);
    for (const r of both) expect(r.isError, r.content[0]?.text).not.toBe(true);
    const finals = model.requests.slice(before).map(seen).filter((s) => s.outputs.length > 0);
    expect(finals).toHaveLength(2);
    for (const s of finals) {
      const who = s.prompts.at(-1)!.slice('I am '.length);
      expect(s.subjects).toEqual(Array.from({ length: 5 }, () => who));
    }
    expect(new Set(finals.map((s) => s.prompts.at(-1)))).toEqual(new Set(['I am alice', 'I am bob']));

    // What reached the upstream: tokens of alice and bob only (never the operator's, never a mix-up above).
    const subjects = presentedTokens(fixture, from).map((t) => fixture.subjectOf(t));
    expect(new Set(subjects)).toEqual(new Set(['alice', 'bob']));
  }, 120_000);

  it('asks a caller without a login to sign in (URL elicitation), then the agent\'s call goes on as that caller', async () => {
    const carol = await connect('carol', 'carol');
    model.enqueue(whoamiTurn('own'), responsesTurn({ text: 'signed in' }));
    const r = await codex(carol, 'codex', { prompt: 'I am carol' });
    expect(r.isError, r.content[0]?.text).not.toBe(true);
    expect(browsers).toHaveLength(1);
    expect(await browsers[0]).toMatch(/^200 Signed in to own/);
    expect(seen(model.requests.at(-1)!).subjects.at(-1)).toBe('carol');
  }, 120_000);

  it('fails the agent\'s tool call with the sign-in link when the client cannot open URLs', async () => {
    const dave = await connect('dave');
    model.enqueue(whoamiTurn('own'), responsesTurn({ text: 'needs a login' }));
    const r = await codex(dave, 'codex', { prompt: 'I am dave' });
    expect(r.content[0]!.text).toBe('needs a login');
    const output = seen(model.requests.at(-1)!).outputs.at(-1)!;
    expect(output).toContain("MCP server 'own' acts as each caller, and you have not signed in to it yet.");
    const link = /Open (\S+) to sign in/.exec(output)?.[1];
    expect(link, output).toMatch(new RegExp(`^${url.replace(/[.]/g, '\\.')}/upstream-login/`));
    // The link is dave's: signing in with it makes his next turn go on as dave.
    expect(await signIn(link!, 'dave')).toMatch(/^200 /);
    model.enqueue(whoamiTurn('own'), responsesTurn({ text: 'now dave' }));
    expect((await codex(dave, 'codex', { prompt: 'I am dave' })).content[0]!.text).toBe('now dave');
    expect(seen(model.requests.at(-1)!).subjects.at(-1)).toBe('dave');
  }, 120_000);
});
