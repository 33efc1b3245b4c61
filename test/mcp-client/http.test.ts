// Streamable HTTP against real SDK v2 and v1 server transports on loopback: sessions, headers, bearer
// tokens, status mapping, transient retries, slow answers, dropped SSE streams, legacy HTTP+SSE.
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { createV1Server } from '../fixtures/mcp/v1-server.mjs';
import { startHttpFixture } from '../fixtures/mcp/http-fixture.js';
import type { HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { capturingLogger, clientPool, failure, serverConfig, textOf } from './helpers.js';

const pool = clientPool();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});

async function fixture(flavor: 'v2' | 'v1' = 'v2', events?: string[]): Promise<HttpFixture> {
  const f = await startHttpFixture({
    flavor,
    createServer: () => (flavor === 'v1' ? createV1Server() : createFixtureServer({ onEvent: (e) => events?.push(e) })) as never,
  });
  fixtures.push(f);
  return f;
}


describe.each(['v2', 'v1'] as const)('streamable HTTP server on the SDK %s transport', (flavor) => {
  it('initializes, keeps the session id and calls tools', async () => {
    const f = await fixture(flavor);
    const client = pool.create(serverConfig('web', { url: f.url }));
    const ready = await client.connect();
    expect(ready.serverInfo?.name).toBe(flavor === 'v1' ? 'fixture-v1' : 'fixture-v2');
    expect((await client.listTools()).map((t) => t.name)).toContain('echo');
    expect(textOf(await client.callTool('echo', { text: 'over http' }))).toBe('over http');
    const call = f.postHeaders[f.methods.indexOf('tools/call')]!;
    expect(call['mcp-session-id']).toMatch(/[0-9a-f-]{36}/);
    expect(String(call.accept)).toContain('application/json');
    expect(String(call.accept)).toContain('text/event-stream');
  });
});

describe('HTTP configuration', () => {
  it('sends http_headers, env_http_headers (skipping empty values) and the bearer token', async () => {
    const f = await fixture();
    const env = { SB_TOKEN: 'tok-123', SB_TEAM: 'team-a', SB_EMPTY: '  ' };
    const config = serverConfig('web', {
      url: f.url,
      bearer_token_env_var: 'SB_TOKEN',
      http_headers: { 'X-Static': 'static' },
      env_http_headers: { 'X-Team': 'SB_TEAM', 'X-Empty': 'SB_EMPTY', 'X-Missing': 'SB_NOT_SET' },
    });
    const client = pool.create(config, { env });
    await client.connect();
    const headers = f.postHeaders[0]!;
    expect(headers.authorization).toBe('Bearer tok-123');
    expect(headers['x-static']).toBe('static');
    expect(headers['x-team']).toBe('team-a');
    expect(headers).not.toHaveProperty('x-empty');
    expect(headers).not.toHaveProperty('x-missing');
  });

  it('reports an unset or empty bearer variable with Codex text', async () => {
    const unset = pool.create(serverConfig('web', { url: 'http://127.0.0.1:9/mcp', bearer_token_env_var: 'SB_NOPE' }), { env: {} });
    const e1 = await failure(unset.connect());
    expect(e1.code).toBe('config');
    expect(e1.message).toBe("Environment variable SB_NOPE for MCP server 'web' is not set");
    const empty = pool.create(serverConfig('web', { url: 'http://127.0.0.1:9/mcp', bearer_token_env_var: 'SB_NOPE' }), { env: { SB_NOPE: '' } });
    expect((await failure(empty.connect())).message).toBe("Environment variable SB_NOPE for MCP server 'web' is empty");
  });
});

describe('HTTP status mapping', () => {
  it('401 becomes auth_required with the WWW-Authenticate challenge, and is never retried', async () => {
    const f = await fixture();
    f.setBearerToken('right');
    const client = pool.create(serverConfig('web', { url: f.url, bearer_token_env_var: 'T' }), { env: { T: 'wrong' } });
    const err = await failure(client.connect());
    expect(err.code).toBe('auth_required');
    expect(err.message).toContain('Auth required');
    expect(err.details.challenge).toContain('resource_metadata=');
    expect(err.details.status).toBe(401);
  });

  it('403 insufficient_scope becomes a step-up error with the required scope', async () => {
    const f = await fixture();
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    f.failNext({ status: 403, count: 1, headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="files:write"' } });
    const err = await failure(client.callTool('echo', { text: 'x' }));
    expect(err.code).toBe('insufficient_scope');
    expect(err.details.requiredScope).toBe('files:write');
  });

  it('500 on tools/call fails once with the body preview; 500 on tools/list is retried', async () => {
    const f = await fixture();
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    f.failNext({ status: 500, count: 1, body: 'database on fire' });
    const err = await failure(client.callTool('echo', { text: 'x' }));
    expect(err.code).toBe('http_status');
    expect(err.message).toBe('HTTP 500: database on fire');
    expect(f.count('tools/call')).toBe(1);

    f.failNext({ status: 503, count: 2 });
    const tools = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(f.count('tools/list')).toBe(3);
    expect(f.count('initialize')).toBe(1);
  });

  it('initialize is retried after a transient failure, inside the startup deadline', async () => {
    const f = await fixture();
    f.failNext({ status: 502, count: 1, includeInitialize: true });
    const client = pool.create(serverConfig('web', { url: f.url }), {}, { versionNegotiation: 'legacy' });
    await client.connect();
    expect(f.count('initialize')).toBe(2);
  });

  it('the 2026-07-28 probe is retried after a transient failure like initialize, then falls back to initialize', async () => {
    const f = await fixture();
    f.failNext({ status: 502, count: 1, includeInitialize: true });
    const client = pool.create(serverConfig('web', { url: f.url }));
    expect((await client.connect()).protocolVersion).toBe('2025-11-25');
    expect(f.methods.filter((m) => m === 'server/discover' || m === 'initialize')).toEqual(['server/discover', 'server/discover', 'initialize']);
  });

  it('a refused connection is a network error, retried and then reported', async () => {
    const client = pool.create(serverConfig('web', { url: 'http://127.0.0.1:9/mcp' }), {}, { retryDelaysMs: [10, 20] });
    const err = await failure(client.connect());
    expect(err.code).toBe('network');
  });

  it('a slow answer times out with Codex text', async () => {
    const f = await fixture();
    const client = pool.create(serverConfig('web', { url: f.url, tool_timeout_sec: 1 }));
    await client.connect();
    f.setDelay('tools/call', 3_000);
    const err = await failure(client.callTool('echo', { text: 'x' }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('timed out awaiting tools/call after 1s');
  });

  it.each([404, 405])('a GET stream answered %i means "no server stream", not an error', async (status) => {
    const f = await fixture();
    f.setGetStatus(status);
    const logger = capturingLogger();
    const client = pool.create(serverConfig('web', { url: f.url }), { logger });
    await client.connect();
    expect(textOf(await client.callTool('echo', { text: 'still fine' }))).toBe('still fine');
    expect(f.gets.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toContain('Failed to open SSE stream');
  });
});

describe('SSE streams', () => {
  it('a dropped response stream is resumed with Last-Event-ID and the call completes', async () => {
    const events: string[] = [];
    const f = await fixture('v2', events);
    const client = pool.create(serverConfig('web', { url: f.url }));
    await client.connect();
    const result = await client.callTool('reconnect', {});
    expect(textOf(result)).toBe('answered after reconnect');
    expect(events).toContain('sse closed');
    expect(f.gets.some((g) => g.lastEventId !== undefined)).toBe(true);
  });
});
