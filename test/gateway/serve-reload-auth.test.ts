// A running `switchboard serve --http` with [server_auth] (the built CLI, OAuth fixture tokens) given a
// changed config.toml: a rule added at run time decides the next request of a caller whose session
// was already open, a tool filter added to a server hides and refuses its tool from the next request,
// and a limit added applies to the next call. Sessions stay open through each change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeWithConfig, revisionOf, saveAsEditor } from '../support/config-save.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import { removeTree } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { UPSTREAM_FIXTURE } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const q = JSON.stringify;

interface Rpc {
  result?: { content?: { text?: string }[]; tools?: { name: string }[] };
  error?: { code: number; message: string };
}

describe('switchboard serve --http: [server_auth] and filters reloaded while callers are connected', () => {
  let fixture: OAuthFixture;
  let serve: ServeProcess;
  let home: string;
  let file: string;
  let mcpUrl: string;
  let base: string;
  const sessions: RawHttpSession[] = [];

  const servers = (docsExtra = '') =>
    `[mcp_servers.pay]\ncommand = ${q(process.execPath)}\nargs = [${q(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "pay" }\n\n` +
    `[mcp_servers.docs]\ncommand = ${q(process.execPath)}\nargs = [${q(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "docs" }\n${docsExtra}\n`;
  const auth = (extra = '') => `[server_auth]\nissuer = "${fixture.issuer}"\naudience = "${mcpUrl}"\n${extra}\n`;

  /** Saves the file as an editor does and waits until the gateway runs it (its revision on /readyz). */
  async function apply(text: string): Promise<void> {
    await saveAsEditor(file, text);
    await waitFor(async () => (await (await fetch(new URL('/readyz', base))).text()).includes(`config revision ${revisionOf(text)}\n`), `revision ${revisionOf(text)} to be in force`, 20_000);
  }

  async function caller(sub: string): Promise<RawHttpSession> {
    const session = new RawHttpSession(mcpUrl, await fixture.mintAccessToken({ sub }));
    await session.initialize();
    sessions.push(session);
    return session;
  }
  const call = async (s: RawHttpSession, name: string, args: Record<string, unknown> = {}) => (await s.request('tools/call', { name, arguments: args })) as Rpc;
  const echo = async (s: RawHttpSession, server: string) => {
    const r = await call(s, `mcp__${server}__echo`, { text: 'hi' });
    return r.error ? `error ${r.error.code}: ${r.error.message}` : (r.result?.content?.[0]?.text ?? '');
  };
  const tools = async (s: RawHttpSession) => (((await s.request('tools/list')) as Rpc).result?.tools ?? []).map((t) => t.name);

  beforeAll(async () => {
    requireBuild();
    const port = await freePort();
    mcpUrl = `http://127.0.0.1:${port}/mcp`;
    base = `http://127.0.0.1:${port}/`;
    fixture = await startOAuthFixture({ jwt: { audience: mcpUrl } });
    let work: string;
    ({ home, file, work } = await homeWithConfig('sb-serve-reload-auth-', servers() + auth()));
    serve = await spawnServe(['--http', `127.0.0.1:${port}`], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: work });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await serve?.stop();
    await fixture?.close();
    if (home) await removeTree(home);
  });

  it('a rule added at run time denies the next call of a caller already connected; the others keep theirs', async () => {
    const [alice, bob] = [await caller('alice'), await caller('bob')];
    expect(await echo(bob, 'pay')).toBe('pay:hi');
    expect(await echo(alice, 'pay')).toBe('pay:hi');

    await apply(servers() + auth('[[server_auth.rules]]\nwhen = { claim = "sub", equals = "alice" }\nallow = ["pay__*", "docs__*"]\n\n[[server_auth.rules]]\nwhen = { claim = "sub", equals = "bob" }\nallow = ["docs__*"]\n'));
    expect(await echo(bob, 'pay')).toBe('error -32602: Unknown tool: mcp__pay__echo');
    expect((await tools(bob)).filter((n) => n.startsWith('mcp__pay__'))).toEqual([]);
    expect(await echo(bob, 'docs')).toBe('docs:hi');
    expect(await echo(alice, 'pay')).toBe('pay:hi');

    // The rules removed again: every token caller sees everything from its next request.
    await apply(servers() + auth());
    expect(await echo(bob, 'pay')).toBe('pay:hi');
  }, 60_000);

  it('a tool filter and a limit added at run time apply from the next request', async () => {
    const carol = await caller('carol');
    expect(await tools(carol)).toContain('mcp__docs__slow');
    await apply(servers('disabled_tools = ["slow"]\n') + auth('limits = { concurrent_calls = 1 }\n'));
    expect(await tools(carol)).not.toContain('mcp__docs__slow');
    expect(await tools(carol)).toContain('mcp__docs__echo');
    const refused = await call(carol, 'mcp__docs__slow', { ms: 1 });
    expect(refused.error?.message).toMatch(/mcp__docs__slow/);

    // One call at a time now: of two sent at once, one runs and the other is refused with 429.
    const responses = await Promise.all(['a', 'b'].map((id) => carol.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'mcp__pay__slow', arguments: { ms: 2_000 } } })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 429]);
    const refusedCall = responses.find((r) => r.status === 429)!;
    expect(await refusedCall.json()).toMatchObject({ error: { message: expect.stringContaining('[server_auth.limits] concurrent_calls') } });
    const ran = responses.findIndex((r) => r.status === 200);
    expect(((await carol.responseOn(responses[ran]!, ['a', 'b'][ran])) as Rpc).result?.content?.[0]?.text).toBe('pay:slow 2000');
  }, 60_000);
});
