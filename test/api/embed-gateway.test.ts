// The library's gateway speaks the library's language: a refused setting names the option in code
// (not a CLI flag), its TSDoc states the defaults the code uses, and a signal stops it. Like `serve`,
// it stops a stdio server nobody uses after mcp_stop_after_idle_sec.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { runStdioGateway, startHttpGateway } from '../../src/api/gateway.js';
import { buildConfig, type Config } from '../../src/api/index.js';
import { HTTP_DEFAULTS } from '../../src/mcp-host/http/index.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { descendants } from '../support/process-tree.js';
import { tempHome } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { textOf, UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';

let config: Config;
let cleanup: () => Promise<void>;
const TOKEN = 'a-token-of-more-than-16-chars';

beforeAll(async () => {
  const home = await tempHome();
  cleanup = home.cleanup;
  ({ config } = buildConfig({}, { home: home.home }));
});
afterAll(async () => cleanup());

/** Whether anything accepts a connection at `url`. */
async function listening(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'GET', signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}

describe('the library gateway (startHttpGateway, runStdioGateway)', () => {
  it('names its own options when it refuses to serve, never a CLI flag', async () => {
    const texts = await Promise.all(
      [{ config }, { config, token: 'short' }, { config, host: '0.0.0.0', insecureNoAuth: true }].map((options) =>
        startHttpGateway(options).then(
          () => 'started',
          (err: unknown) => (err as Error).message,
        ),
      ),
    );
    expect(texts[0]).toBe('no token: pass a `token` (clients send "Authorization: Bearer <token>"); on a loopback address `insecureNoAuth: true` runs without one');
    expect(texts[1]).toContain("randomBytes(32).toString('base64url')");
    expect(texts[2]).toBe('`insecureNoAuth: true` is only allowed on a loopback address, not 0.0.0.0; use a token');
    for (const text of texts) expect(text).not.toMatch(/--[a-z]/);
  });

  it('documents the session limit and idle time the code uses', () => {
    const source = readFileSync(path.join(import.meta.dirname, '../../src/api/embed-gateway.ts'), 'utf8');
    const doc = (key: string) => new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*${key}\\?:`).exec(source)?.[1] ?? '';
    expect(doc('maxSessions')).toContain(`Default ${HTTP_DEFAULTS.maxSessions}`);
    expect(doc('idleTimeoutMs')).toContain(`Default ${HTTP_DEFAULTS.idleTimeoutMs / 60_000} minutes`);
  });

  it('stops when its signal is aborted, and fails with cancelled when aborted before it starts', async () => {
    const controller = new AbortController();
    const gateway = await startHttpGateway({ config, token: TOKEN, signal: controller.signal });
    expect(await listening(gateway.url)).toBe(true);
    controller.abort();
    await expect.poll(() => listening(gateway.url), { timeout: 10_000 }).toBe(false);
    await gateway.close();

    await expect(startHttpGateway({ config, token: TOKEN, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'McpClientError', code: 'cancelled' });
  });

  it("stops a stdio server that sets no stop_after_idle_sec after the config's mcp_stop_after_idle_sec, as serve does", async () => {
    const marker = `embedded-idle-${process.pid}`;
    const built = buildConfig(
      { mcp_stop_after_idle_sec: 0.5, mcp_servers: { solo: { command: process.execPath, args: [UPSTREAM_FIXTURE, marker], env: { GW_NAME: 'solo' } } } },
      { home: config.home },
    ).config;
    const gateway = await startHttpGateway({ config: built, insecureNoAuth: true });
    const client = new Client({ name: 'embedded', version: '1.0.0' }, { capabilities: {} });
    const upstreams = async () => (await descendants()).filter((p) => p.command.includes(marker)).map((p) => p.pid);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
      const echo = async () => textOf(await client.callTool({ name: 'mcp__solo__echo', arguments: { text: 'x' } }));
      expect(await echo()).toBe('solo:x');
      const [first] = await upstreams();
      expect(first).toBeDefined();
      await waitFor(async () => (await upstreams()).length === 0, 'the idle upstream to exit', 20_000);
      expect(await echo()).toBe('solo:x');
      expect(await upstreams()).not.toContain(first);
    } finally {
      await client.close().catch(() => {});
      await gateway.close();
    }
  }, 60_000);

  it('runStdioGateway stops when its signal is aborted, as when its input ends', async () => {
    const controller = new AbortController();
    const running = runStdioGateway({ config, stdin: new PassThrough(), stdout: new PassThrough(), signal: controller.signal });
    controller.abort();
    expect(await running).toBe(0);
  });
});
