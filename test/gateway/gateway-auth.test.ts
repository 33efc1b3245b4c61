// `switchboard serve --http` as an OAuth protected resource (the built CLI, a real authorization
// server fixture issuing JWTs): RFC 9728 metadata and the 401 challenge; the SDK v2 client's OAuth
// flow from that 401 alone; callers with different claims seeing different catalogs through one
// gateway, a call outside a view answered like an unknown tool; each bad token refused with its
// status; sessions bound to their caller; the static token beside OAuth; the audit trail.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { requireBuild } from '../support/mcp-server-harness.js';
import { runCliProcess } from '../support/cli.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { UPSTREAM_FIXTURE } from './gateway-harness.js';
import { servePlace, spawnServe, type ServeProcess } from './serve-process.js';

const STATIC_TOKEN = 'static-token-of-the-operator-0123';
const ALICE = { sub: 'alice', groups: ['payments'], scope: 'mcp', client_id: 'cli-a' };
const BOT = { sub: 'ci-bot', scope: 'mcp', client_id: 'ci' };

describe('switchboard serve --http with [server_auth]', () => {
  let fixture: OAuthFixture;
  let serve: ServeProcess;
  let home: string;
  let mcpUrl: string;
  let origin: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    requireBuild();
    const place = await servePlace('sb-gateway-auth-');
    const { port, work } = place;
    ({ home, origin, mcpUrl } = place);
    fixture = await startOAuthFixture({ jwt: { audience: mcpUrl, claims: () => ({ sub: 'alice', groups: ['payments'] }) }, scopesSupported: ['mcp'] });
    const upstream = (name: string) => `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "${name}" }\n`;
    await writeFile(
      path.join(home, 'config.toml'),
      `${upstream('pay')}${upstream('git')}
[server_auth]
issuer = "${fixture.issuer}"
audience = "${mcpUrl}"
required_scopes = ["mcp"]

[[server_auth.rules]]
when = { claim = "groups", contains = "payments" }
allow = ["pay__*"]

[[server_auth.rules]]
when = { claim = "sub", equals = "ci-bot" }
allow = ["git__*"]
deny = ["git__ask"]
`,
    );
    await writeFile(path.join(home, 'token'), `${STATIC_TOKEN}\n`);
    serve = await spawnServe(['--http', `127.0.0.1:${port}`, '--token-file', path.join(home, 'token')], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: work });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'auth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  const toolNames = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
  const callError = (c: Client, name: string) =>
    c.callTool({ name, arguments: { text: 'x' } }).then(
      () => undefined,
      (err: unknown) => ({ code: (err as { code?: number }).code, message: (err as Error).message }),
    );

  it('publishes RFC 9728 metadata and challenges a request without a token', async () => {
    const res = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(res.headers.get('www-authenticate')).toContain('scope="mcp"');
    for (const p of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const meta = await fetch(`${origin}${p}`);
      expect(meta.status).toBe(200);
      expect(await meta.json()).toEqual({ resource: mcpUrl, authorization_servers: [fixture.issuer], bearer_methods_supported: ['header'], scopes_supported: ['mcp'], resource_name: 'switchboard' });
    }
  });

  it('lets the SDK v2 client complete the OAuth flow from the 401 alone', async () => {
    const provider = new MemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    const first = new Client({ name: 'sdk-oauth', version: '1.0.0' });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const code = await approve(provider.authorizationUrl!);
    await transport.finishAuth(code);
    const client = new Client({ name: 'sdk-oauth', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    clients.push(client);
    // The fixture's token carries the claims of alice (groups: payments) and the resource as audience.
    expect(await toolNames(client)).toEqual(['mcp__pay__ask', 'mcp__pay__ask_then_withdraw', 'mcp__pay__ask_url', 'mcp__pay__chatter', 'mcp__pay__echo', 'mcp__pay__roots', 'mcp__pay__sample', 'mcp__pay__seen', 'mcp__pay__slow', 'mcp__pay__touch', 'mcp__pay__wait_for_cancel']);
    const result = await client.callTool({ name: 'mcp__pay__echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'pay:hi' }]);
    expect(fixture.requestsTo('/token').at(-1)!.params.resource).toBe(mcpUrl);
  }, 60_000);

  it('shows two callers different catalogs; a call outside a view is answered like an unknown tool', async () => {
    const alice = await connect(await fixture.mintAccessToken(ALICE));
    const bot = await connect(await fixture.mintAccessToken(BOT));
    const aliceTools = await toolNames(alice);
    const botTools = await toolNames(bot);
    expect(aliceTools.every((n) => n.startsWith('mcp__pay__'))).toBe(true);
    expect(botTools.every((n) => n.startsWith('mcp__git__'))).toBe(true);
    expect(botTools).toContain('mcp__git__echo');
    expect(botTools).not.toContain('mcp__git__ask');
    expect((await alice.listPrompts()).prompts.map((p) => p.name)).toEqual(['pay__greet']);
    expect((await bot.listPrompts()).prompts.map((p) => p.name)).toEqual(['git__greet']);
    expect((await alice.listResources()).resources.map((r) => r.uri).sort()).toEqual(['gw://pay/static', 'gw://shared']);
    expect((await bot.listResources()).resources.map((r) => r.uri)).toEqual(['gw://git/static']);
    expect((await bot.callTool({ name: 'mcp__git__echo', arguments: { text: 'ok' } })).content).toEqual([{ type: 'text', text: 'git:ok' }]);

    // A tool that exists but is outside the view, and one that exists nowhere: the same answer.
    expect(await callError(alice, 'mcp__git__echo')).toEqual({ code: -32602, message: 'Unknown tool: mcp__git__echo' });
    expect(await callError(alice, 'mcp__gut__echo')).toEqual({ code: -32602, message: 'Unknown tool: mcp__gut__echo' });
    expect(await callError(bot, 'mcp__git__ask')).toEqual({ code: -32602, message: 'Unknown tool: mcp__git__ask' });
    await expect(bot.getPrompt({ name: 'pay__greet', arguments: { who: 'x' } })).rejects.toThrow('Unknown prompt: pay__greet');
    await expect(bot.readResource({ uri: 'gw://pay/static' })).rejects.toThrow('Resource gw://pay/static not found: no MCP server behind this gateway offers it');
  }, 60_000);

  it('gives the static token holder the whole catalog', async () => {
    const operator = await connect(STATIC_TOKEN);
    const names = await toolNames(operator);
    expect(names).toContain('mcp__pay__echo');
    expect(names).toContain('mcp__git__ask');
  }, 60_000);

  describe('refuses bad tokens with the right status', () => {
    const post = (token: string) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      });
    const refusal = async (token: string) => {
      const res = await post(token);
      return { status: res.status, challenge: res.headers.get('www-authenticate') ?? '', body: (await res.json()) as { error: string; error_description: string } };
    };

    it('an expired token: 401', async () => {
      const r = await refusal(await fixture.mintAccessToken(ALICE, { expiresInSec: -120 }));
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'invalid_token', error_description: 'The access token has expired' });
      expect(r.challenge).toContain('error="invalid_token"');
    });

    it('a token for another audience: 401', async () => {
      const r = await refusal(await fixture.mintAccessToken(ALICE, { audience: 'https://other.example.com/mcp' }));
      expect(r.status).toBe(401);
      expect(r.body.error_description).toBe('The access token was not issued for this resource (audience)');
    });

    it('a token of another issuer: 401', async () => {
      const r = await refusal(await fixture.mintAccessToken(ALICE, { issuer: 'https://evil.example.com' }));
      expect(r.status).toBe(401);
      expect(r.body.error_description).toBe('The access token was not issued by the configured issuer');
    });

    it('a token signed by a retired key: 401, once the rotation is seen', async () => {
      const oldKid = fixture.keys!.currentKid;
      const old = await fixture.mintAccessToken(ALICE);
      expect((await post(old)).status).toBe(200);
      await fixture.keys!.rotate();
      fixture.keys!.retire(oldKid);
      // A token of the new key makes the gateway fetch the key set again: the old key is gone from it.
      expect((await post(await fixture.mintAccessToken(ALICE))).status).toBe(200);
      const r = await refusal(old);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_token');
      const stranger = await refusal(await fixture.mintAccessToken(ALICE, { kid: oldKid }));
      expect(stranger.status).toBe(401);
    });

    it('a token signed by a key the issuer never published: 401', async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256');
      const kid = fixture.keys!.currentKid; // the right kid, the wrong key
      void (await exportJWK(publicKey));
      const now = Math.floor(Date.now() / 1000);
      const forged = await new SignJWT({ ...ALICE }).setProtectedHeader({ alg: 'RS256', kid }).setIssuer(fixture.issuer).setAudience(mcpUrl).setExpirationTime(now + 600).sign(privateKey);
      const r = await refusal(forged);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_token');
    });

    it('a token without the required scope: 403 insufficient_scope naming it', async () => {
      const r = await refusal(await fixture.mintAccessToken({ ...ALICE, scope: 'profile' }));
      expect(r.status).toBe(403);
      expect(r.body.error).toBe('insufficient_scope');
      expect(r.challenge).toContain('error="insufficient_scope"');
      expect(r.challenge).toContain('scope="mcp"');
      expect(r.challenge).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    });

    it('a token without exp: 401', async () => {
      const r = await refusal(await fixture.mintAccessToken(ALICE, { noExpiry: true }));
      expect(r.status).toBe(401);
    });
  });

  it('binds a session to the caller that opened it', async () => {
    const alice = new RawHttpSession(mcpUrl, await fixture.mintAccessToken(ALICE));
    await alice.initialize();
    const refreshed = new RawHttpSession(mcpUrl, await fixture.mintAccessToken(ALICE));
    refreshed.sessionId = alice.sessionId;
    expect((await refreshed.post({ jsonrpc: '2.0', id: 5, method: 'ping' })).status).toBe(200);
    const mallory = new RawHttpSession(mcpUrl, await fixture.mintAccessToken(BOT));
    mallory.sessionId = alice.sessionId;
    const res = await mallory.post({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  it('writes one audit record per served request, without arguments, and `audit tail` reads them', async () => {
    const bot = await connect(await fixture.mintAccessToken(BOT));
    await bot.callTool({ name: 'mcp__git__echo', arguments: { text: 'secret-argument-text' } });
    await callError(bot, 'mcp__pay__echo');
    let tail = { code: 0, stdout: '', stderr: '' };
    // The file is written asynchronously: wait for the records to land.
    for (let i = 0; i < 100 && !tail.stdout.includes('mcp__pay__echo'); i++) {
      tail = await runCliProcess(['audit', 'tail', '--caller', 'ci-bot', '--json', '-n', '50'], { home });
      if (!tail.stdout.includes('mcp__pay__echo')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(tail.code).toBe(0);
    const records = tail.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.every((r) => r.subject === 'ci-bot' && r.client_id === 'ci')).toBe(true);
    const call = records.find((r) => r.method === 'tools/call' && r.tool === 'mcp__git__echo')!;
    expect(call).toMatchObject({ upstream: 'git', outcome: 'ok' });
    expect(typeof call.duration_ms).toBe('number');
    expect(typeof call.session).toBe('string');
    expect(records.find((r) => r.tool === 'mcp__pay__echo')).toMatchObject({ outcome: 'error', error_code: -32602 });
    expect(records.some((r) => r.method === 'initialize')).toBe(true);
    const file = await readFile(path.join(home, 'log', 'audit.jsonl'), 'utf8');
    expect(file).not.toContain('secret-argument-text');
    expect(file).not.toContain('git:secret');
    const human = await runCliProcess(['audit', 'tail', '--caller', 'ci-bot'], { home });
    expect(human.stdout).toMatch(/ci-bot {2}tools\/call mcp__git__echo @git {2}ok {2}[\d.]+ ms/);
    const help = await runCliProcess(['audit', 'tail', '--help'], { home });
    expect(help.stdout).toContain('--caller <subject>');
  }, 60_000);

  it('a 2026-07-28 client (no session) gets its own view, and each of its requests is audited too', async () => {
    const token = await fixture.mintAccessToken(BOT);
    const modern = new Client({ name: 'auth-2026', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(modern);
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const names = (await modern.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__git__echo');
    expect(names.filter((n) => !n.startsWith('mcp__git__') || n === 'mcp__git__ask')).toEqual([]);
    expect((await modern.callTool({ name: 'mcp__git__echo', arguments: { text: 'modern-secret' } })).content).toEqual([{ type: 'text', text: 'git:modern-secret' }]);
    await expect(modern.callTool({ name: 'mcp__pay__echo', arguments: { text: 'x' } })).rejects.toThrow('Unknown tool: mcp__pay__echo');
    let records: Record<string, unknown>[] = [];
    for (let i = 0; i < 100; i++) {
      const tail = await runCliProcess(['audit', 'tail', '--caller', 'ci-bot', '--json', '-n', '200'], { home });
      records = tail.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      if (records.some((r) => r.method === 'tools/call' && r.tool === 'mcp__pay__echo' && r.session === undefined)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const sessionless = records.filter((r) => r.session === undefined);
    expect(sessionless.find((r) => r.method === 'tools/call' && r.tool === 'mcp__git__echo')).toMatchObject({ subject: 'ci-bot', outcome: 'ok' });
    expect(sessionless.find((r) => r.method === 'tools/call' && r.tool === 'mcp__pay__echo')).toMatchObject({ outcome: 'error', error_code: -32602 });
    expect(await readFile(path.join(home, 'log', 'audit.jsonl'), 'utf8')).not.toContain('modern-secret');
  }, 60_000);

  it('refuses to combine an issuer with --insecure-no-auth (exit 2)', async () => {
    const r = await runCliProcess(['serve', '--http', '127.0.0.1:0', '--insecure-no-auth'], { home, cwd: path.join(home, 'work') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--insecure-no-auth cannot be combined with [server_auth] issuer; drop one of them');
  });

  it('under --tool-search, searches and calls only what the caller may see', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const home2 = await tempDir('sb-gateway-auth-search-');
    try {
      await mkdir(path.join(home2, 'work'));
      const config = await readFile(path.join(home, 'config.toml'), 'utf8');
      await writeFile(path.join(home2, 'config.toml'), config.replace(`audience = "${mcpUrl}"`, `audience = "${url}"`));
      await writeFile(path.join(home2, 'token'), `${STATIC_TOKEN}\n`);
      const searching = await spawnServe(['--http', `127.0.0.1:${port}`, '--token-file', path.join(home2, 'token'), '--tool-search'], { env: { PATH: process.env.PATH, HOME: home2, SWITCHBOARD_HOME: home2 }, cwd: path.join(home2, 'work') });
      try {
        const bot = new Client({ name: 'auth-search', version: '1.0.0' });
        await bot.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${await fixture.mintAccessToken(BOT, { audience: url })}` } } }));
        clients.push(bot);
        const found = await bot.callTool({ name: 'search_tools', arguments: { query: 'echo', limit: 50 } });
        const names = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
        expect(names).toContain('mcp__git__echo');
        expect(names.filter((n) => !n.startsWith('mcp__git__') || n === 'mcp__git__ask')).toEqual([]);
        expect((await bot.callTool({ name: 'call_tool', arguments: { name: 'mcp__git__echo', arguments: { text: 'ok' } } })).content).toEqual([{ type: 'text', text: 'git:ok' }]);
        expect(await callError(bot, 'mcp__pay__echo')).toEqual({ code: -32602, message: 'Unknown tool: mcp__pay__echo' });
        await expect(bot.callTool({ name: 'call_tool', arguments: { name: 'mcp__pay__echo', arguments: { text: 'x' } } })).rejects.toThrow('Unknown tool: mcp__pay__echo');
      } finally {
        await searching.stop();
      }
    } finally {
      await removeTree(home2);
    }
  }, 60_000);

  it('never forwards a token upstream', async () => {
    const bot = await connect(await fixture.mintAccessToken(BOT));
    const seen = await bot.callTool({ name: 'mcp__git__seen', arguments: {} });
    expect(JSON.stringify(seen)).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
  }, 60_000);
});

/** An in-memory OAuthClientProvider: what an SDK application keeps between the 401 and the retry. */
class MemoryProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private info: Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0] | undefined;
  private saved: Parameters<OAuthClientProvider['saveTokens']>[0] | undefined;
  private verifier = '';
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  get clientMetadata() {
    return { client_name: 'sdk-test', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: NonNullable<typeof this.info>) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<typeof this.saved>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The user approves: the fixture's /authorize redirects to the callback with the code. */
async function approve(url: URL): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  await res.body?.cancel();
  const code = new URL(res.headers.get('location')!).searchParams.get('code');
  if (!code) throw new Error(`no code in ${res.headers.get('location')}`);
  return code;
}
