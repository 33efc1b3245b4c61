// `mcp-server --http` with [server_auth]: the agent's threads belong to the caller that started them
// (another caller's codex-reply is answered as for an unknown thread) unless a rule's
// `threads = "all"` says otherwise; tools outside a caller's view are listed for nobody and answered
// like unknown tools. Tokens come from the real OAuth fixture.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexProduct } from '../../src/agent-server/index.js';
import { serveHttp, type HttpHost } from '../../src/mcp-host/index.js';
import { AccessPolicy } from '../../src/mcp-host/access/index.js';
import { ResourceAuth } from '../../src/mcp-host/http/index.js';
import { nullLogger } from '../../src/util/index.js';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { inProcessAgent, type InProcess } from '../support/in-process-server.js';
import { RawHttpSession } from '../support/raw-http-session.js';

const AUDIENCE = 'https://agent.example.com/mcp';
let model: FakeModelServer;
let fixture: OAuthFixture;
let ip: InProcess;
let host: HttpHost;

beforeEach(async () => {
  model = await startFakeModelServer();
  fixture = await startOAuthFixture({ jwt: { audience: AUDIENCE } });
  ip = await inProcessAgent(model);
  const access = new AccessPolicy([
    { when: { claim: 'groups', contains: 'agents' }, allow: ['codex', 'codex-reply'], deny: [], threads: 'own' },
    { when: { claim: 'sub', equals: 'lead' }, allow: ['codex-reply'], deny: [], threads: 'all' },
  ]);
  const auth = new ResourceAuth({ issuer: fixture.issuer, audience: AUDIENCE, staticToken: null, logger: nullLogger });
  host = await serveHttp(codexProduct(ip.agent, ip.options, nullLogger), { listen: { host: '127.0.0.1', port: 0 }, token: null, auth }, { logger: nullLogger, access });
});
afterEach(async () => {
  await host?.close();
  await ip?.cleanup();
  await fixture?.close();
  await model?.close();
});

async function session(claims: Record<string, unknown>): Promise<RawHttpSession> {
  const s = new RawHttpSession(host.url, await fixture.mintAccessToken(claims));
  await s.initialize();
  return s;
}

type ToolResult = { result: { content: { text: string }[]; isError?: boolean; structuredContent?: { threadId?: string } } };
const call = async (s: RawHttpSession, name: string, args: Record<string, unknown>) => ((await s.request('tools/call', { name, arguments: args })) as unknown as ToolResult).result;

describe('mcp-server --http: callers and threads', () => {
  it('lets only the caller that started a thread continue it, unless a rule says threads = "all"', async () => {
    const alice = await session({ sub: 'alice', groups: ['agents'] });
    const bob = await session({ sub: 'bob', groups: ['agents'] });
    const lead = await session({ sub: 'lead' });
    model.enqueue(responsesTurn({ text: 'started' }));
    const started = await call(alice, 'codex', { prompt: 'hello', cwd: ip.work });
    expect(started.content[0]!.text).toBe('started');
    const threadId = started.structuredContent!.threadId!;

    const refused = await call(bob, 'codex-reply', { threadId, prompt: 'mine now' });
    expect(refused).toMatchObject({ isError: true, content: [{ text: `Session not found for thread_id: ${threadId}` }] });
    // The same answer as for a thread that does not exist at all.
    const unknownId = '0199a213-81c0-7800-8aa1-bbab2a035a53';
    expect((await call(bob, 'codex-reply', { threadId: unknownId, prompt: 'x' })).content[0]!.text).toBe(`Session not found for thread_id: ${unknownId}`);

    model.enqueue(responsesTurn({ text: 'again' }));
    expect((await call(alice, 'codex-reply', { threadId, prompt: 'more' })).content[0]!.text).toBe('again');
    model.enqueue(responsesTurn({ text: 'lead here' }));
    expect((await call(lead, 'codex-reply', { threadId, prompt: 'review' })).content[0]!.text).toBe('lead here');
  }, 60_000);

  it('lists and runs only the tools in the caller\'s view', async () => {
    const lead = await session({ sub: 'lead' });
    const eve = await session({ sub: 'eve' });
    const names = async (s: RawHttpSession) => ((await s.request('tools/list')) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(await names(lead)).toEqual(['codex-reply']);
    expect(await names(eve)).toEqual([]);
    expect(await call(lead, 'codex', { prompt: 'x' })).toMatchObject({ isError: true, content: [{ text: "Unknown tool 'codex'" }] });
    expect(await call(eve, 'codex', { prompt: 'x' })).toMatchObject({ isError: true, content: [{ text: "Unknown tool 'codex'" }] });
  }, 60_000);
});
