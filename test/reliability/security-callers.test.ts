// Probes of `switchboard serve --http` (the built CLI, JWTs from a real authorization server fixture)
// as an attacker holding a valid but restricted token would run them (issue 30): replaying another
// caller's 2026-07-28 request state; reading a denied resource under other spellings of its URI;
// learning about denied servers through instructions, status lines, log messages and listen
// streams; call_tool's schema errors; ids that carry addresses; and the audit trail of each refusal.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { requireBuild } from '../support/mcp-server-harness.js';
import { post2026 } from '../support/raw-2026.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';

const FORM = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };

interface Served {
  url: string;
  serve: ServeProcess;
}


/** A denied resource's URI written otherwise: each must be refused like the URI itself. */
const DENIED_SPELLINGS: [string, string][] = [
  ['another scheme and host case', 'GW://PAY/static'],
  ['a dot segment', 'gw://pay/./static'],
  ['a climb back', 'gw://pay/x/../static'],
  ['percent-encoding', 'gw://pay/%73tatic'],
  ['a template variable written otherwise', 'gw://pay/item/01'],
];
describe('serve --http: a restricted caller stays inside its view', () => {
  let fixture: OAuthFixture;
  let home: string;
  let gateway: Served;
  /** The same rules in front of `pay` alone, as a pure proxy (tokens for the same audience). */
  let transparent: Served;
  let alice: string;
  let mallory: string;
  const clients: Client[] = [];

  async function start(extraArgs: string[], port: number): Promise<Served> {
    const serve = await spawnServe(['--http', `127.0.0.1:${port}`, ...extraArgs], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: path.join(home, 'work') });
    return { url: `http://127.0.0.1:${port}/mcp`, serve };
  }

  beforeAll(async () => {
    requireBuild();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    fixture = await startOAuthFixture({ jwt: { audience: url } });
    home = await tempDir('sb-sec-callers-');
    await mkdir(path.join(home, 'work'));
    const upstream = (name: string) =>
      `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "${name}", GW_EXTRAS = "1", GW_INSTRUCTIONS = "the ${name} server's private instructions" }\n`;
    await writeFile(
      path.join(home, 'config.toml'),
      `${upstream('pay')}${upstream('git')}
[mcp_servers.ghost]
command = "/nonexistent/secret-path/ghost-server"

[server_auth]
issuer = "${fixture.issuer}"
audience = "${url}"

[[server_auth.rules]]
when = { claim = "sub", equals = "alice" }
allow = ["pay__*", "git__*", "ghost__*"]
deny = ["pay__gw://pay/static", "pay__gw://pay/item/1"]

[[server_auth.rules]]
when = { claim = "sub", equals = "mallory" }
allow = ["git__*"]
`,
    );
    gateway = await start([], port);
    const transparentHome = path.join(home, 'transparent');
    await mkdir(transparentHome);
    await writeFile(
      path.join(transparentHome, 'config.toml'),
      `${upstream('pay')}
[server_auth]
issuer = "${fixture.issuer}"
audience = "${url}"

[[server_auth.rules]]
when = { claim = "sub", equals = "alice" }
allow = ["pay__*"]
deny = ["pay__gw://pay/static", "pay__gw://pay/item/1"]
`,
    );
    const tport = await freePort();
    transparent = {
      url: `http://127.0.0.1:${tport}/mcp`,
      serve: await spawnServe(['--http', `127.0.0.1:${tport}`, '--transparent'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: transparentHome }, cwd: path.join(home, 'work') }),
    };
    alice = await fixture.mintAccessToken({ sub: 'alice' });
    mallory = await fixture.mintAccessToken({ sub: 'mallory' });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await gateway?.serve.stop();
    await transparent?.serve.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  async function connect(token: string, notes: { method: string; params?: Record<string, unknown> }[] = [], url = gateway.url): Promise<Client> {
    const client = new Client({ name: 'probe', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.fallbackNotificationHandler = async (n) => void notes.push({ method: n.method, params: n.params as Record<string, unknown> | undefined });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  const audit = async () =>
    (await readFile(path.join(home, 'log', 'audit.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("refuses another caller's 2026-07-28 request state, audits the replay, and leaves the owner's request waiting", async () => {
    let id = 100;
    const ask = (token: string, params: Record<string, unknown>) =>
      post2026(gateway.url, { id: ++id, method: 'tools/call', params: { name: 'mcp__pay__ask', arguments: { message: 'your PIN?' }, ...params }, name: 'mcp__pay__ask', token, meta: FORM });
    const first = (await ask(alice, {})).answer.result as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    expect(first.resultType).toBe('input_required');
    const [key] = Object.keys(first.inputRequests);
    const replay = (await ask(mallory, { requestState: first.requestState, inputResponses: { [key!]: { action: 'accept', content: { answer: 'mallory' } } } })).answer;
    expect(replay.result).toBeUndefined();
    expect(replay.error).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid requestState: it was minted for another request') });
    // Opaque: no caller, tool or internal address can be read out of the state.
    const decoded = first.requestState.split('.').map((p) => Buffer.from(p, 'base64url').toString('latin1')).join(' ');
    expect(decoded).not.toMatch(/alice|mcp__pay__ask|127\.0\.0\.1/);
    const own = (await ask(alice, { requestState: first.requestState, inputResponses: { [key!]: { action: 'accept', content: { answer: 'alice' } } } })).answer;
    expect(JSON.stringify(own.result)).toContain('alice');
    await waitFor(async () => (await audit()).some((r) => r.subject === 'mallory' && r.outcome === 'refused_state'), 'the replay in the audit trail', 10_000);
  }, 60_000);

  it.each(DENIED_SPELLINGS)('transparent: refuses a denied resource spelled with %s (%s), in both revisions, and its subscription', async (_what, uri) => {
    const client = await connect(alice, [], transparent.url);
    await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
    await expect(client.subscribeResource({ uri })).rejects.toMatchObject({ code: -32602 });
    const { answer } = await post2026(transparent.url, { id: 7, method: 'resources/read', params: { uri }, name: uri, token: alice });
    expect(answer.error).toMatchObject({ code: -32602 });
    const [item] = (await client.readResource({ uri: 'gw://pay/item/2' })).contents as { text: string }[];
    expect(JSON.parse(item!.text)).toEqual({ server: 'pay', id: '2' });
  }, 60_000);

  it.each([
    ...DENIED_SPELLINGS,
    ['a template variable percent-encoded', 'gw://pay/item/%31'],
  ])('aggregating: refuses a denied resource spelled with %s (%s), in both revisions, and its subscription', async (_what, uri) => {
    const client = await connect(alice);
    await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
    await expect(client.subscribeResource({ uri })).rejects.toMatchObject({ code: -32602 });
    const { answer } = await post2026(gateway.url, { id: 7, method: 'resources/read', params: { uri }, name: uri, token: alice });
    expect(answer.error).toMatchObject({ code: -32602 });
    // What the rules allow still reads.
    const [item] = (await client.readResource({ uri: 'gw://pay/item/2' })).contents as { text: string }[];
    expect(JSON.parse(item!.text)).toEqual({ server: 'pay', id: '2' });
  }, 60_000);

  it('gives a caller the instructions, status lines and log messages of the servers it sees only', async () => {
    const aliceNotes: { method: string; params?: Record<string, unknown> }[] = [];
    const malloryNotes: { method: string; params?: Record<string, unknown> }[] = [];
    const a = await connect(alice, aliceNotes);
    const m = await connect(mallory, malloryNotes);
    expect(a.getInstructions()).toContain("the pay server's private instructions");
    expect(m.getInstructions() ?? '').not.toMatch(/pay|ghost/);
    expect(m.getInstructions()).toContain("the git server's private instructions");
    const discover = (await post2026(gateway.url, { id: 9, method: 'server/discover', params: {}, name: '', token: mallory })).answer.result as { instructions?: string };
    expect(discover.instructions ?? '').not.toMatch(/pay|ghost/);
    await a.setLoggingLevel('debug');
    await m.setLoggingLevel('debug');
    // The failed ghost server's status line (with its command path) reaches Alice, who sees it, and not Mallory.
    await waitFor(() => aliceNotes.some((n) => JSON.stringify(n).includes('secret-path')), "ghost's status line at Alice", 20_000);
    // pay logs outside any request: Alice hears it, Mallory does not (git's reaches both).
    await a.callTool({ name: 'mcp__pay__log_later', arguments: { text: 'pay-outside', ms: 50 } });
    await m.callTool({ name: 'mcp__git__log_later', arguments: { text: 'git-outside', ms: 50 } });
    await waitFor(() => aliceNotes.some((n) => JSON.stringify(n).includes('pay-outside')) && malloryNotes.some((n) => JSON.stringify(n).includes('git-outside')), 'the log messages', 20_000);
    const leaked = JSON.stringify(malloryNotes);
    expect(leaked).not.toMatch(/pay-outside|secret-path|ghost/);
  }, 60_000);

  it('hears on a listen stream only the updates of resources its caller may read', async () => {
    const listen = async (token: string, uris: string[]) => {
      const res = await fetch(gateway.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen', 'mcp-name': '' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'l', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      });
      const body: string[] = [];
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          body.push(value!);
        }
      })();
      return { text: () => body.join(''), close: () => reader.cancel().catch(() => {}) };
    };
    const allowed = 'gw://pay/item/2';
    const a = await listen(alice, [allowed, 'gw://git/static']);
    const m = await listen(mallory, [allowed, 'gw://git/static']);
    await waitFor(() => a.text().includes('acknowledged') && m.text().includes('acknowledged'), 'both streams acknowledged', 10_000);
    const client = await connect(alice);
    await client.callTool({ name: 'mcp__pay__touch', arguments: { uri: allowed } });
    await client.callTool({ name: 'mcp__git__touch', arguments: { uri: 'gw://git/static' } });
    await waitFor(() => a.text().includes(allowed) && m.text().includes('gw://git/static'), 'the updates of what each may read', 10_000);
    expect(m.text().split('\n').filter((l) => l.includes('resources/updated')).join('\n')).not.toContain('gw://pay');
    await a.close();
    await m.close();
  }, 60_000);

  it('refuses a session another caller opened, and audits refusals at the door with what is known of the caller', async () => {
    const session = new RawHttpSession(gateway.url, alice);
    await session.initialize();
    const hijack = await fetch(gateway.url, { method: 'POST', headers: { ...new RawHttpSession(gateway.url, mallory).headers(), 'mcp-session-id': session.sessionId!, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }) });
    expect(hijack.status).toBe(404);
    const forged = await fetch(gateway.url, { method: 'POST', headers: { authorization: 'Bearer not.a.jwt', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(forged.status).toBe(401);
    await waitFor(async () => {
      const records = await audit();
      return records.some((r) => r.outcome === 'refused_session' && r.subject === 'mallory' && r.session === session.sessionId) && records.some((r) => r.outcome === 'unauthorized' && r.subject === null);
    }, 'the refusals in the audit trail', 10_000);
  }, 30_000);
});
