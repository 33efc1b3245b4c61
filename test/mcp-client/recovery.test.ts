// Session recovery over Streamable HTTP: a 404 on a request that carried a session id rebuilds the
// transport from its recipe, initializes again, retries once and re-fetches the tool list.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecoveredEvent } from '../../src/mcp-client/index.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { createV1Server } from '../fixtures/mcp/v1-server.mjs';
import { startHttpFixture } from '../fixtures/mcp/http-fixture.js';
import type { HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { clientPool, failure, serverConfig, textOf } from './helpers.js';
import { waitFor } from '../support/wait.js';

const pool = clientPool();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});


async function setup(flavor: 'v2' | 'v1' = 'v2', toolsPerSession?: (session: number) => string[]) {
  let sessions = 0;
  const f = await startHttpFixture({
    flavor,
    createServer: () => {
      sessions += 1;
      return (flavor === 'v1' ? createV1Server() : createFixtureServer({ extraTools: toolsPerSession?.(sessions) ?? [] })) as never;
    },
  });
  fixtures.push(f);
  const recovered: SessionRecoveredEvent[] = [];
  const client = pool.create(serverConfig('web', { url: f.url }), { handlers: { onSessionRecovered: (e) => recovered.push(e) } });
  await client.connect();
  await client.listTools();
  return { f, client, recovered };
}

describe.each(['v2', 'v1'] as const)('session recovery against the SDK %s server transport', (flavor) => {
  it('re-initializes, retries the call exactly once and re-fetches the tools', async () => {
    const { f, client, recovered } = await setup(flavor);
    f.expireSessions();
    const result = await client.callTool('echo', { text: 'after expiry' });
    expect(textOf(result)).toBe('after expiry');
    expect(f.count('initialize')).toBe(2);
    expect(f.count('tools/call')).toBe(2);
    await waitFor(() => recovered.length === 1, 'the recovery report', 10_000);
    expect(recovered[0]!.toolsChanged).toBe(false);
    expect(recovered[0]!.generation).toBe(2);
    expect(f.count('tools/list')).toBe(2);
    const sessionsUsed = new Set(f.postHeaders.map((h) => h['mcp-session-id']).filter(Boolean));
    expect(sessionsUsed.size).toBe(2);
  });
});

describe('session recovery', () => {
  it('reports a changed tool list after recovery', async () => {
    const { f, client, recovered } = await setup('v2', (session) => (session > 1 ? ['brand_new_tool'] : []));
    f.expireSessions();
    await client.callTool('echo', { text: 'x' });
    await waitFor(() => recovered.length === 1, 'the recovery report', 10_000);
    expect(recovered[0]!.toolsChanged).toBe(true);
    expect(recovered[0]!.tools?.map((t) => t.name)).toContain('brand_new_tool');
  });

  it('a recovered tools/list reports the change from its own result', async () => {
    const { f, client, recovered } = await setup('v2', (session) => (session > 1 ? ['late_tool'] : []));
    f.expireSessions();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('late_tool');
    expect(recovered).toHaveLength(1);
    expect(recovered[0]!.toolsChanged).toBe(true);
    // setup's listing, the one answered 404, its retry — and no separate re-fetch.
    expect(f.count('tools/list')).toBe(3);
  });

  it('concurrent operations during recovery recover once and all succeed', async () => {
    const { f, client } = await setup();
    f.expireSessions();
    f.setDelay('initialize', 200);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => client.callTool('echo', { text: `call ${i}` })));
    expect(results.map(textOf)).toEqual(Array.from({ length: 6 }, (_, i) => `call ${i}`));
    expect(f.count('initialize')).toBe(2);
  });

  it('a second 404 in the same operation fails it; the next operation recovers again', async () => {
    const { f, client } = await setup();
    f.failNext({ status: 404, count: 2, body: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}' });
    const err = await failure(client.callTool('echo', { text: 'x' }));
    expect(err.code).toBe('session_expired');
    expect(f.count('initialize')).toBe(2);
    expect(client.status.kind).toBe('ready');
    f.expireSessions();
    expect(textOf(await client.callTool('echo', { text: 'next' }))).toBe('next');
    expect(f.count('initialize')).toBe(3);
  });

  it('401 and 500 never trigger recovery', async () => {
    const { f, client } = await setup();
    f.failNext({ status: 401, count: 1, headers: { 'WWW-Authenticate': 'Bearer realm="x"' } });
    expect((await failure(client.callTool('echo', { text: 'x' }))).code).toBe('auth_required');
    f.failNext({ status: 500, count: 1 });
    expect((await failure(client.callTool('echo', { text: 'x' }))).code).toBe('http_status');
    expect(f.count('initialize')).toBe(1);
  });
});
