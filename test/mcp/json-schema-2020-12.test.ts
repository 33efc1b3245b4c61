// A JSON Schema 2020-12 tool schema ($defs, $ref, prefixItems, unevaluatedProperties, $schema, ...)
// from a real server of either era reaches the model, `switchboard mcp tools --json` and gateway
// clients exactly as the server sent it: never dereferenced, never down-converted.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { responsesTurn, startFakeModelServer } from '../fixtures/fake-model-server.js';
import { connectInProcess } from '../fixtures/in-process-mcp.js';
import { ORDER_SCHEMA } from '../fixtures/mcp/schema-2020-12.mjs';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { startGateway, type GatewayHarness } from '../gateway/gateway-harness.js';
import { EventReader, makeHarness, text } from '../support/agent-harness.js';
import { runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const FIXTURE = fixtureProgram('mcp/stdio-v2-server.mjs');
const ERA_ENV = { modern: { FIXTURE_SERVE: 'modern-only' }, legacy: {} } as const;
const stdioServer = (name: keyof typeof ERA_ENV) =>
  parseMcpServerConfig(name, { command: process.execPath, args: [FIXTURE], env: { FIXTURE_SCHEMA_2020: '1', ...ERA_ENV[name] } }).config;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a JSON Schema 2020-12 tool schema arrives unchanged', () => {
  it('in the tool specs the model is sent', async () => {
    const model = await startFakeModelServer();
    cleanups.push(() => model.close());
    const server = () => createFixtureServer({ schema2020: true, resources: false, prompts: false });
    const mcp = await connectInProcess({ modern: server, legacy: server }, { modernOnly: ['modern'] });
    cleanups.push(() => mcp.close());
    expect(mcp.manager.status().map((s) => [s.name, s.protocol])).toEqual([
      ['modern', '2026-07-28'],
      ['legacy', '2025-11-25'],
    ]);
    const h = await makeHarness(model, { mcp: mcp.source });
    cleanups.push(() => h.cleanup());
    model.enqueue(responsesTurn({ text: 'ok' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    await events.turnEnd(await thread.submit(text('hi')));
    const tools = model.requests[0]!.body.tools as { name: string; parameters: unknown }[];
    for (const name of ['modern', 'legacy']) {
      expect(tools.find((t) => t.name === `mcp__${name}__place_order`)?.parameters).toStrictEqual(ORDER_SCHEMA);
    }
  });

  it('in `switchboard mcp tools --json`', async () => {
    const { home, cleanup } = await tempHome();
    cleanups.push(cleanup);
    const q = JSON.stringify;
    const block = (name: string, env: Record<string, string>) =>
      [`[mcp_servers.${name}]`, `command = ${q(process.execPath)}`, `args = [${q(FIXTURE)}]`, `env = ${'{ ' + Object.entries(env).map(([k, v]) => `${k} = ${q(v)}`).join(', ') + ' }'}`, ''];
    await writeFile(
      path.join(home, 'config.toml'),
      [...block('modern', { FIXTURE_SCHEMA_2020: '1', ...ERA_ENV.modern }), ...block('legacy', { FIXTURE_SCHEMA_2020: '1' })].join('\n'),
    );
    const r = await runCli(['mcp', 'tools', '--json'], { home });
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as { name: string; inputSchema: unknown }[];
    for (const name of ['modern', 'legacy']) {
      expect(listed.find((t) => t.name === `mcp__${name}__place_order`)?.inputSchema).toStrictEqual(ORDER_SCHEMA);
    }
  });

  it('at a gateway client, on the wire and through its SDK', async () => {
    const gw: GatewayHarness = await startGateway([stdioServer('modern'), stdioServer('legacy')]);
    cleanups.push(() => gw.close());
    // What the gateway sent, before the client's SDK parsed it.
    const raw: JSONRPCMessage[] = [];
    const transport = gw.client.transport!;
    const deliver = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      raw.push(structuredClone(message));
      deliver(message, extra);
    };
    const { tools } = await gw.client.listTools();
    const wire = raw.flatMap((m) => ('result' in m && Array.isArray((m.result as { tools?: unknown }).tools) ? ((m.result as { tools: { name: string; inputSchema: unknown }[] }).tools) : []));
    for (const name of ['modern', 'legacy']) {
      expect(wire.find((t) => t.name === `mcp__${name}__place_order`)?.inputSchema).toStrictEqual(ORDER_SCHEMA);
      expect(tools.find((t) => t.name === `mcp__${name}__place_order`)?.inputSchema).toStrictEqual(ORDER_SCHEMA);
    }
  });
});
