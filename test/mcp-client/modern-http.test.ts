// What a 2026-07-28 request carries over Streamable HTTP: the MCP-Protocol-Version, Mcp-Method and
// Mcp-Name headers, the arguments a tool declares as headers (x-mcp-header), and no tool whose
// header declaration is invalid.
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { clientPool, serverConfig, textOf } from './helpers.js';

const pool = clientPool();
let fixture: HttpFixture | undefined;
afterEach(async () => {
  await pool.closeAll();
  await fixture?.close();
});

async function connected() {
  fixture = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer({ headerTools: true }) as never });
  const client = pool.create(serverConfig('modern', { url: fixture.url }));
  expect((await client.connect()).protocolVersion).toBe('2026-07-28');
  return { client, f: fixture };
}

const headersOf = (f: HttpFixture, method: string) => f.postHeaders[f.methods.lastIndexOf(method)]!;

describe('2026-07-28 over Streamable HTTP', () => {
  it('every POST names its method (and tool) in headers, with the protocol version', async () => {
    const { client, f } = await connected();
    await client.listTools();
    expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
    for (const method of f.methods) {
      const h = f.postHeaders[f.methods.indexOf(method)]!;
      expect(h['mcp-method'], method).toBe(method);
      expect(h['mcp-protocol-version'], method).toBe('2026-07-28');
    }
    expect(headersOf(f, 'tools/call')['mcp-name']).toBe('echo');
  });

  it('mirrors the arguments a tool declares as headers', async () => {
    const { client, f } = await connected();
    await client.listTools();
    expect(textOf(await client.callTool('regional', { region: 'us-west1', query: 'q' }))).toBe('us-west1: q');
    expect(headersOf(f, 'tools/call')['mcp-param-region']).toBe('us-west1');
  });

  it('leaves out a tool whose header declaration is invalid', async () => {
    const { client } = await connected();
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toContain('regional');
    expect(names).not.toContain('bad_header');
  });
});
