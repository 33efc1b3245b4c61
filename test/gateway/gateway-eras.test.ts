// Through the gateway, a 2026-07-28 upstream's confirmation (an input-required result) reaches the
// gateway's 2025 client as an elicitation/create request, exactly as a 2025 upstream's own request
// does, and the client's answer decides the call. A client that declared no elicitation gets a clear
// error for the 2026 upstream's call instead of a hang.
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { startGateway, textOf, type GatewayHarness } from './gateway-harness.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const FIXTURE = fixtureProgram('mcp/stdio-v2-server.mjs');
const server = (name: string, env: Record<string, string>) =>
  parseMcpServerConfig(name, { command: process.execPath, args: [FIXTURE], env: { FIXTURE_INPUT_REQUIRED: '1', ...env } }).config;
const SERVERS = () => [server('modern', { FIXTURE_SERVE: 'modern-only' }), server('legacy', {})];
const CALL = { timeout: 60_000 };

let gw: GatewayHarness | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

describe('gateway: confirmations from upstreams of both protocol eras', () => {
  it('relays each as elicitation/create to its 2025 client, and the answer decides', async () => {
    const asked: { message: string }[] = [];
    let answer: 'accept' | 'decline' = 'accept';
    gw = await startGateway(SERVERS(), {
      capabilities: { elicitation: { form: {} } },
      setup: (client: Client) =>
        client.setRequestHandler('elicitation/create', async (req) => {
          asked.push(req.params as { message: string });
          return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
        }),
    });
    await gw.client.listTools();
    expect(gw.pool.upstreams().manager.status().map((st) => [st.name, st.protocol])).toEqual([
      ['modern', '2026-07-28'],
      ['legacy', '2025-11-25'],
    ]);
    for (const name of ['modern', 'legacy']) {
      answer = 'accept';
      expect(textOf(await gw.client.callTool({ name: `mcp__${name}__deploy`, arguments: { env: name } }, CALL))).toBe(`deployed to ${name}`);
      answer = 'decline';
      expect(textOf(await gw.client.callTool({ name: `mcp__${name}__deploy`, arguments: { env: name } }, CALL))).toBe('deploy cancelled');
    }
    expect(asked.map((a) => a.message)).toEqual(['Deploy to modern?', 'Deploy to modern?', 'Deploy to legacy?', 'Deploy to legacy?']);
  });

  it('a client without elicitation gets an error for the 2026 upstream, never a hang', async () => {
    gw = await startGateway(SERVERS(), { capabilities: {} });
    const started = Date.now();
    const outcome = await gw.client.callTool({ name: 'mcp__modern__deploy', arguments: { env: 'prod' } }, CALL).then(
      (r) => ({ isError: r.isError === true, text: textOf(r) }),
      (e: unknown) => ({ isError: true, text: String(e) }),
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/elicitation/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("passes the client's W3C trace context (traceparent, tracestate in _meta) on to upstreams of both eras", async () => {
    gw = await startGateway(SERVERS(), { capabilities: {} });
    const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=opaque' };
    for (const name of ['modern', 'legacy']) {
      const result = await gw.client.callTool({ name: `mcp__${name}__trace`, arguments: {}, _meta: trace }, CALL);
      expect(JSON.parse(textOf(result))).toEqual(trace);
    }
  });
});
