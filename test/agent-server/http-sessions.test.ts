// `switchboard mcp-server --http` never locks a new client out: 1,000 SDK clients that go away
// without DELETE, then a new one is served (default settings, and a low --max-sessions where the
// least recently used sessions are closed); an evicted session gets 404 and our McpClient recovers.
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { createMcpClient, type SessionRecoveredEvent } from '../../src/mcp-client/index.js';
import { nullLogger } from '../../src/util/index.js';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { makeServerHome, spawnHttpServer, type ServerHome } from '../support/mcp-server-harness.js';
import { SESSION_STORM_SETTINGS } from '../support/long-runs.js';
import { RawHttpSession } from '../support/raw-http-session.js';

let model: FakeModelServer;
let sh: ServerHome;
beforeAll(async () => {
  model = await startFakeModelServer();
  sh = await makeServerHome(model);
});
afterAll(async () => {
  await model.close();
  await sh.cleanup();
});

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: 'abandoning-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** `count` SDK clients connect, list the tools, and go away without DELETE (close() sends none). */
async function abandon(url: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - done) }, async () => {
        const client = await sdkClient(url);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['codex', 'codex-reply']);
        await client.close();
      }),
    );
  }
}

// `npm test` takes one setting, `npm run test:reliability` both (SESSION_STORM_SETTINGS).
describe.each(SESSION_STORM_SETTINGS)('1,000 sessions abandoned without DELETE, %s', (_name, args) => {
  it('a new client is still served', async () => {
    const server = await spawnHttpServer(sh, ['--insecure-no-auth', ...args]);
    try {
      await abandon(server.url, 1000);
      const client = await sdkClient(server.url);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['codex', 'codex-reply']);
      await client.close();
      expect(server.output.stderr).not.toMatch(/Too many sessions/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 180_000);
});

describe('an evicted session', () => {
  it('gets 404 and our McpClient re-initializes and retries transparently', async () => {
    const server = await spawnHttpServer(sh, ['--insecure-no-auth', '--max-sessions', '2']);
    try {
      const recovered: SessionRecoveredEvent[] = [];
      // Sessions are a 2025 thing: the client is held to that era (in auto mode it would speak 2026-07-28, sessionless).
      const ours = createMcpClient(
        parseMcpServerConfig('agent', { url: server.url }).config,
        { logger: nullLogger, handlers: { onSessionRecovered: (e) => recovered.push(e) } },
        { versionNegotiation: 'legacy' },
      );
      await ours.connect();
      expect((await ours.listTools()).map((t) => t.name)).toEqual(['codex', 'codex-reply']);
      // A newer listening client and a new session: ours is the least recently used, closed to make room.
      const sdk = await sdkClient(server.url);
      const raw = new RawHttpSession(server.url, null);
      await raw.initialize();
      const result = await ours.callTool('codex', undefined);
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/codex/) }] });
      await expect.poll(() => recovered.length).toBe(1);
      expect(recovered[0]).toMatchObject({ generation: 2, toolsChanged: false });
      // Making room for ours again closed the quiet raw session before the listening SDK client.
      expect((await raw.post({ jsonrpc: '2.0', id: 5, method: 'ping' })).status).toBe(404);
      expect((await sdk.listTools()).tools).toHaveLength(2);
      await sdk.close();
      await ours.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('an SDK client gets the 404 (it does not re-initialize by itself); the newer ones keep working', async () => {
    const server = await spawnHttpServer(sh, ['--insecure-no-auth', '--max-sessions', '2']);
    try {
      const [a, b, c] = [await sdkClient(server.url), await sdkClient(server.url), await sdkClient(server.url)];
      const failed = await a!.listTools().then(
        () => null,
        (err: unknown) => err,
      );
      expect(failed).toBeInstanceOf(SdkHttpError);
      expect((failed as SdkHttpError).status).toBe(404);
      for (const live of [b!, c!]) expect((await live.listTools()).tools).toHaveLength(2);
      await Promise.all([a!, b!, c!].map((x) => x.close()));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
