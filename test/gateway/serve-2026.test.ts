// `switchboard serve --http` (the built CLI) serving clients of both protocol eras at once on one
// endpoint and one pool: an SDK v2 client in 2026-07-28 mode (no session), an SDK v2 client in 2025
// mode and an SDK v1 client, in front of a 2025 upstream and a 2026-07-28-only upstream. A 2025
// upstream's elicitation reaches the 2026 client as an input-required result and its retry resumes
// the waiting upstream call; a 2026 upstream's input-required result reaches the 2025 clients as
// elicitation/create; a tampered requestState is refused with a clear error; the servers'
// instructions are passed on; list changes reach the 2026 client's subscriptions/listen stream, and its
// resource subscriptions hold the upstream's while it is open. Over
// stdio, the client's first message decides its era, and a 2026 client's listen stream works as over HTTP.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { descendants } from '../support/process-tree.js';
import { post2026 as postRaw2026 } from '../support/raw-2026.js';
import { removeTree, tempDir } from '../support/temp.js';
import { textOf, UPSTREAM_FIXTURE } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const MODERN_FIXTURE = fixtureProgram('mcp/stdio-v2-server.mjs');
const CALL = { timeout: 60_000 };

/** One raw 2026-07-28 request; the JSON-RPC answer. */
async function post2026(url: string, id: number, method: string, name: string, params: Record<string, unknown>) {
  return (await postRaw2026(url, { id, method, name, params })).answer;
}

describe('switchboard serve --http: 2026-07-28 and 2025 clients on one endpoint', () => {
  let serve: ServeProcess;
  let home: string;
  const asked: Record<string, string[]> = { modern: [], v2: [], v1: [] };
  let modern: Client;
  let v2: Client;
  let v1: ClientV1;

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-2026-');
    await writeFile(
      path.join(home, 'config.toml'),
      [
        `[mcp_servers.solo]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "solo" }`,
        `[mcp_servers.modern]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MODERN_FIXTURE)}]\nenv = { FIXTURE_SERVE = "modern-only", FIXTURE_INPUT_REQUIRED = "1", FIXTURE_RUNTIME_TOOLS = "1" }`,
      ].join('\n\n') + '\n',
    );
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: home });
    const capabilities = { elicitation: { form: {} } };
    modern = new Client({ name: 'modern', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: 'auto' } });
    v2 = new Client({ name: 'v2', version: '1.0.0' }, { capabilities });
    v1 = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities });
    const answer = (who: string, message: string) => {
      asked[who]!.push(message);
      const content: Record<string, string | boolean> = message.startsWith('Deploy') ? { confirm: true } : { answer: `from ${who}` };
      return { action: 'accept' as const, content };
    };
    modern.setRequestHandler('elicitation/create', async (req) => answer('modern', (req.params as { message: string }).message));
    v2.setRequestHandler('elicitation/create', async (req) => answer('v2', (req.params as { message: string }).message));
    v1.setRequestHandler(ElicitRequestSchema, async (req) => answer('v1', req.params.message));
    await Promise.all([
      modern.connect(new StreamableHTTPClientTransport(new URL(serve.url))),
      v2.connect(new StreamableHTTPClientTransport(new URL(serve.url))),
      v1.connect(new HttpV1(new URL(serve.url))),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([modern, v2, v1].map((c) => c?.close().catch(() => {})));
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it('serves all three at once: the 2026 client without a session, the others in sessions, one upstream process each', async () => {
    expect(modern.getProtocolEra()).toBe('modern');
    expect(v2.getProtocolEra()).toBe('legacy');
    const [a, b, c] = await Promise.all([modern.listTools(), v2.listTools(), v1.listTools()]);
    expect(a.tools.map((t) => t.name)).toEqual([...a.tools.map((t) => t.name)].sort());
    expect(new Set(a.tools.map((t) => t.name))).toEqual(new Set(b.tools.map((t) => t.name)));
    expect(new Set(c.tools.map((t) => t.name))).toEqual(new Set(b.tools.map((t) => t.name)));
    const echo = (text: string) => ({ name: 'mcp__solo__echo', arguments: { text } });
    const echoes = await Promise.all([modern.callTool(echo('c0'), CALL), v2.callTool(echo('c1'), CALL), v1.callTool(echo('c2'), undefined, CALL)]);
    expect(echoes.map((r) => textOf(r as never))).toEqual(['solo:c0', 'solo:c1', 'solo:c2']);
    const upstreams = (await descendants(serve.child.pid!)).filter((p) => p.command.includes(UPSTREAM_FIXTURE) || p.command.includes(MODERN_FIXTURE));
    expect(upstreams).toHaveLength(2);
  }, 60_000);

  it("a 2025 upstream's elicitation reaches the 2026 client as an input-required result; its retry resumes the upstream call", async () => {
    const r = await modern.callTool({ name: 'mcp__solo__ask', arguments: { message: 'for the 2026 client' } }, CALL);
    expect(JSON.parse(textOf(r as never))).toEqual({ action: 'accept', content: { answer: 'from modern' } });
    expect(asked.modern).toContain('for the 2026 client');
  }, 60_000);

  it("a 2026 upstream's input-required result reaches the SDK v2 (2025 mode) and SDK v1 clients as elicitation/create", async () => {
    const r2 = await v2.callTool({ name: 'mcp__modern__deploy', arguments: { env: 'staging' } }, CALL);
    expect(textOf(r2 as never)).toBe('deployed to staging');
    const r1 = await v1.callTool({ name: 'mcp__modern__deploy', arguments: { env: 'prod' } }, undefined, CALL);
    expect(textOf(r1 as never)).toBe('deployed to prod');
    expect(asked.v2).toEqual(['Deploy to staging?']);
    expect(asked.v1).toEqual(['Deploy to prod?']);
    // And the 2026 client, for whom the same question is an input-required result of the gateway's.
    const r3 = await modern.callTool({ name: 'mcp__modern__deploy', arguments: { env: 'dev' } }, CALL);
    expect(textOf(r3 as never)).toBe('deployed to dev');
  }, 60_000);

  it("passes the servers' instructions on as one text naming each server's part, to clients of both eras", async () => {
    const expected = 'This gateway serves several MCP servers. The instructions of each:\n\n## modern (tools named mcp__modern__*)\n\nFixture server instructions.';
    // The servers are ready by now (earlier tests called them): a client arriving now gets their part.
    for (const negotiation of [{}, { versionNegotiation: { mode: 'auto' as const } }]) {
      const late = new Client({ name: 'late', version: '1.0.0' }, { capabilities: {}, ...negotiation });
      await late.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
      try {
        expect(late.getInstructions()).toBe(expected);
      } finally {
        await late.close();
      }
    }
  }, 60_000);

  it("publishes a server's list change on the 2026 client's subscriptions/listen stream", async () => {
    const changed = new Promise<void>((resolve) => modern.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    const sub = await modern.listen({ toolsListChanged: true });
    try {
      await v2.callTool({ name: 'mcp__modern__register_tool', arguments: { name: 'late_tool' } }, CALL);
      await changed;
      await expect.poll(async () => (await modern.listTools()).tools.map((t) => t.name), { timeout: 20_000 }).toContain('mcp__modern__late_tool');
    } finally {
      await sub.close();
    }
  }, 60_000);

  it("subscribes the upstream for a listen stream's resource subscriptions while the stream is open; its updates reach the stream", async () => {
    const uri = 'gw://solo/static';
    const seen = async () => (JSON.parse(textOf((await v2.callTool({ name: 'mcp__solo__seen', arguments: {} }, CALL)) as never)) as { subscribed: string[] }).subscribed;
    expect(await seen()).toEqual([]);
    const updates: string[] = [];
    modern.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    const sub = await modern.listen({ resourceSubscriptions: [uri, 'gw://nowhere/at-all'] });
    try {
      await expect.poll(seen, { timeout: 20_000 }).toEqual([uri]);
      await v2.callTool({ name: 'mcp__solo__touch', arguments: { uri } }, CALL);
      await expect.poll(() => updates, { timeout: 20_000 }).toEqual([uri]);
    } finally {
      await sub.close();
    }
    // The stream closed: nobody else subscribes, so the upstream subscription ends with it.
    await expect.poll(seen, { timeout: 20_000 }).toEqual([]);
  }, 60_000);

  it('refuses a tampered requestState with a clear error, and accepts the real one', async () => {
    const first = await post2026(serve.url, 1, 'tools/call', 'mcp__solo__ask', { name: 'mcp__solo__ask', arguments: { message: 'raw' } });
    expect(first.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    const key = Object.keys(first.result!.inputRequests as object)[0]!;
    const state = first.result!.requestState as string;
    const answers = { [key]: { action: 'accept', content: { answer: 'raw answer' } } };
    // One character of the sealed state changed (never to itself: that would be the real state).
    const tampered = `${state.slice(0, -2)}${state.at(-2) === 'A' ? 'B' : 'A'}${state.slice(-1)}`;
    const refused = await post2026(serve.url, 2, 'tools/call', 'mcp__solo__ask', { name: 'mcp__solo__ask', arguments: { message: 'raw' }, inputResponses: answers, requestState: tampered });
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid requestState: it was altered/) });
    const tooLong = await post2026(serve.url, 3, 'tools/call', 'mcp__solo__ask', { name: 'mcp__solo__ask', arguments: { message: 'raw' }, inputResponses: answers, requestState: 'x'.repeat(5000) });
    expect(tooLong.error?.message).toMatch(/^Invalid requestState: it is 5000 characters long/);
    // The waiting upstream call was not disturbed: the real state still resumes it.
    const done = await post2026(serve.url, 4, 'tools/call', 'mcp__solo__ask', { name: 'mcp__solo__ask', arguments: { message: 'raw' }, inputResponses: answers, requestState: state });
    expect(JSON.parse(((done.result!.content as { text: string }[])[0]!).text)).toEqual({ action: 'accept', content: { answer: 'raw answer' } });
    // Used once: the request it belonged to has ended.
    const again = await post2026(serve.url, 5, 'tools/call', 'mcp__solo__ask', { name: 'mcp__solo__ask', arguments: { message: 'raw' }, inputResponses: answers, requestState: state });
    expect(again.error?.message).toMatch(/^Invalid requestState: the request it belongs to is no longer waiting here/);
  }, 60_000);
});

describe('switchboard serve (stdio): the first message decides the era', () => {
  let home: string;
  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-2026-stdio-');
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.solo]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "solo" }\n`);
  });
  afterAll(async () => {
    if (home) await removeTree(home);
  });

  it("a transparent gateway passes its server's instructions on as they are", async () => {
    const own = await tempDir('sb-serve-2026-transparent-');
    try {
      await writeFile(path.join(own, 'config.toml'), `[mcp_servers.one]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MODERN_FIXTURE)}]\nenv = { FIXTURE_SERVE = "factory" }\n`);
      const client = new Client({ name: 'transparent', version: '1.0.0' }, { capabilities: {} });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--transparent'], env: { PATH: process.env.PATH!, HOME: own, SWITCHBOARD_HOME: own }, cwd: own, stderr: 'pipe' }));
      try {
        expect(client.getInstructions()).toBe('Fixture server instructions.');
      } finally {
        await client.close();
      }
    } finally {
      await removeTree(own);
    }
  }, 60_000);

  it("a 2026-07-28 client's listen stream hears resource updates; the upstream is subscribed while it is open", async () => {
    const uri = 'gw://solo/static';
    const client = new Client({ name: 'listener', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve'], env: { PATH: process.env.PATH!, HOME: home, SWITCHBOARD_HOME: home }, cwd: home, stderr: 'pipe' }));
    const seen = async () => (JSON.parse(textOf((await client.callTool({ name: 'mcp__solo__seen', arguments: {} }, CALL)) as never)) as { subscribed: string[] }).subscribed;
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const sub = await client.listen({ resourceSubscriptions: [uri] });
      await expect.poll(seen, { timeout: 20_000 }).toEqual([uri]);
      await client.callTool({ name: 'mcp__solo__touch', arguments: { uri } }, CALL);
      await expect.poll(() => updates, { timeout: 20_000 }).toEqual([uri]);
      await sub.close();
      await expect.poll(seen, { timeout: 20_000 }).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it.each([
    ['2026-07-28', { versionNegotiation: { mode: 'auto' as const } }, 'modern'],
    ['2025', {}, 'legacy'],
  ])('a %s client is served, its elicitation asked in its era', async (_name, negotiation, era) => {
    const client = new Client({ name: era, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, ...negotiation });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { answer: `from ${era}` } }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve'], env: { PATH: process.env.PATH!, HOME: home, SWITCHBOARD_HOME: home }, cwd: home, stderr: 'pipe' }));
    try {
      expect(client.getProtocolEra()).toBe(era);
      const r = await client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'stdio' } }, CALL);
      expect(JSON.parse(textOf(r as never))).toEqual({ action: 'accept', content: { answer: `from ${era}` } });
    } finally {
      await client.close();
    }
  }, 60_000);
});
