// `switchboard serve --http` (the built CLI) with calls of several clients of both eras running at
// once on ONE 2026-07-28 upstream that asks for input (input-required results): each question goes
// to the client whose call asked it, and that client's answer decides its own call. The clients: an
// SDK v2 client in 2025 mode and an SDK v1 client (each asked with elicitation/create or
// sampling/createMessage over its session), and two SDK v2 clients in 2026-07-28 mode (each asked
// through an input-required result of the gateway's). Every client holds its answer until all of
// them have been asked, so all the calls wait on the upstream together. A client that cannot answer
// (no elicitation) has only its own call refused meanwhile.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { descendants } from '../support/process-tree.js';
import { removeTree, tempDir } from '../support/temp.js';
import { textOf } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const MODERN_FIXTURE = fixtureProgram('mcp/stdio-v2-server.mjs');
const CALL = { timeout: 60_000 };
/** How long a client holds its answer waiting for the others to be asked (only reached when some never are). */
const GATHER_TIMEOUT_MS = 20_000;

type Who = 'a' | 'b' | 'c' | 'd';
const WHO: readonly Who[] = ['a', 'b', 'c', 'd'];
type Elicited = { action: 'accept'; content: { confirm: boolean } } | { action: 'decline' };
/** Each client's answer to "Deploy to <env>?": two confirm, one says no, one declines. */
const ANSWERS: Record<Who, Elicited> = {
  a: { action: 'accept', content: { confirm: true } },
  b: { action: 'accept', content: { confirm: false } },
  c: { action: 'decline' },
  d: { action: 'accept', content: { confirm: true } },
};

/** Resolves for every waiter once `n` have arrived (or after the timeout, so a failure shows as results). */
function gathering(n: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  const timer = setTimeout(release, GATHER_TIMEOUT_MS);
  return async () => {
    arrived += 1;
    if (arrived === n) {
      clearTimeout(timer);
      release();
    }
    await all;
  };
}

describe('switchboard serve --http: input requests of one 2026-07-28 upstream, several clients at once', () => {
  let serve: ServeProcess;
  let home: string;
  let asked: Record<Who, string[]>;
  let gather: () => Promise<void>;
  let a: Client;
  let b: Client;
  let c: ClientV1;
  let d: Client;
  /** Clients without elicitation or sampling: a 2025-mode one and a 2026-07-28 one. */
  let mute2025: Client;
  let mute2026: Client;

  const reset = () => {
    asked = { a: [], b: [], c: [], d: [] };
    gather = gathering(WHO.length);
  };
  const elicit = async (who: Who, message: string): Promise<Elicited> => {
    asked[who].push(message);
    await gather();
    return ANSWERS[who];
  };
  const sample = async (who: Who, prompt: string) => {
    asked[who].push(prompt);
    await gather();
    return { role: 'assistant' as const, content: { type: 'text' as const, text: `${who} answers ${prompt}` }, model: `model-of-${who}` };
  };
  const promptOf = (params: { messages: { content: unknown }[] }) => (params.messages[0]?.content as { text: string }).text;

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-2026-concurrent-');
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.modern]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MODERN_FIXTURE)}]\nenv = { FIXTURE_SERVE = "modern-only", FIXTURE_INPUT_REQUIRED = "1" }\n`,
    );
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: home });
    const capabilities = { elicitation: { form: {} }, sampling: {} };
    const modern = { versionNegotiation: { mode: 'auto' as const } };
    a = new Client({ name: 'a', version: '1.0.0' }, { capabilities });
    b = new Client({ name: 'b', version: '1.0.0' }, { capabilities, ...modern });
    c = new ClientV1({ name: 'c', version: '1.0.0' }, { capabilities });
    d = new Client({ name: 'd', version: '1.0.0' }, { capabilities, ...modern });
    for (const [who, client] of [['a', a], ['b', b], ['d', d]] as const) {
      client.setRequestHandler('elicitation/create', async (req) => elicit(who, (req.params as { message: string }).message));
      client.setRequestHandler('sampling/createMessage', async (req) => sample(who, promptOf(req.params as never)));
    }
    c.setRequestHandler(ElicitRequestSchema, async (req) => elicit('c', req.params.message));
    c.setRequestHandler(CreateMessageRequestSchema, async (req) => sample('c', promptOf(req.params as never)));
    mute2025 = new Client({ name: 'mute-2025', version: '1.0.0' }, { capabilities: {} });
    mute2026 = new Client({ name: 'mute-2026', version: '1.0.0' }, { capabilities: {}, ...modern });
    await Promise.all([
      mute2025.connect(new StreamableHTTPClientTransport(new URL(serve.url))),
      mute2026.connect(new StreamableHTTPClientTransport(new URL(serve.url))),
      a.connect(new StreamableHTTPClientTransport(new URL(serve.url))),
      b.connect(new StreamableHTTPClientTransport(new URL(serve.url))),
      c.connect(new HttpV1(new URL(serve.url))),
      d.connect(new StreamableHTTPClientTransport(new URL(serve.url))),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a, b, c, d, mute2025, mute2026].map((client) => client?.close().catch(() => {})));
    await serve?.stop();
    if (home) await removeTree(home);
  });

  /** The same tool called by all four clients at once, each with its own arguments; the results' texts by client. */
  async function callAll(tool: string, args: (who: Who) => Record<string, unknown>): Promise<Record<Who, string>> {
    const name = `mcp__modern__${tool}`;
    const results = await Promise.all([
      a.callTool({ name, arguments: args('a') }, CALL),
      b.callTool({ name, arguments: args('b') }, CALL),
      c.callTool({ name, arguments: args('c') }, undefined, CALL),
      d.callTool({ name, arguments: args('d') }, CALL),
    ]);
    return Object.fromEntries(WHO.map((who, i) => [who, textOf(results[i])])) as Record<Who, string>;
  }

  it('serves clients of both eras from one upstream process', async () => {
    expect([a, b, d].map((client) => client.getProtocolEra())).toEqual(['legacy', 'modern', 'modern']);
    const tools = await Promise.all([a.listTools(), b.listTools(), c.listTools(), d.listTools()]);
    for (const list of tools) expect(list.tools.map((t) => t.name)).toContain('mcp__modern__deploy');
    const upstreams = (await descendants(serve.child.pid!)).filter((p) => p.command.includes(MODERN_FIXTURE));
    expect(upstreams).toHaveLength(1);
  }, 60_000);

  it("asks each client its own call's elicitation, all calls waiting at once, and each client's answer decides its own call", async () => {
    reset();
    const results = await callAll('deploy', (who) => ({ env: who }));
    // Each client was asked exactly its own question: nobody saw another client's.
    expect(asked).toEqual({ a: ['Deploy to a?'], b: ['Deploy to b?'], c: ['Deploy to c?'], d: ['Deploy to d?'] });
    expect(results).toEqual({ a: 'deployed to a', b: 'deploy cancelled', c: 'deploy cancelled', d: 'deployed to d' });
  }, 60_000);

  it('refuses, for a client without elicitation, only its own call, while the others are asked', async () => {
    reset();
    const outcome = (p: Promise<unknown>) => p.then((r) => ({ isError: (r as { isError?: boolean }).isError === true, text: textOf(r) }), (e: unknown) => ({ isError: true, text: String(e) }));
    const name = 'mcp__modern__deploy';
    const [results, refused2025, refused2026] = await Promise.all([
      callAll('deploy', (who) => ({ env: `${who}3` })),
      outcome(mute2025.callTool({ name, arguments: { env: 'mute-2025' } }, CALL)),
      outcome(mute2026.callTool({ name, arguments: { env: 'mute-2026' } }, CALL)),
    ]);
    expect(asked).toEqual({ a: ['Deploy to a3?'], b: ['Deploy to b3?'], c: ['Deploy to c3?'], d: ['Deploy to d3?'] });
    expect(results).toEqual({ a: 'deployed to a3', b: 'deploy cancelled', c: 'deploy cancelled', d: 'deployed to d3' });
    // The refusal the gateway answers on the 2025 client's behalf; the 2026 client's own capabilities
    // reach the upstream, which refuses its request (-32021) rather than ask it.
    expect(refused2025).toMatchObject({ isError: true, text: expect.stringMatching(/the client does not support elicitation/) });
    expect(refused2026).toMatchObject({ isError: true, text: expect.stringMatching(/'confirm' \(elicitation\/create\): the request's client capabilities do not declare the required capability/) });
  }, 60_000);

  it("asks each client its own call's sampling request, and each call's result is its own client's answer", async () => {
    reset();
    const results = await callAll('ask_model', (who) => ({ prompt: `question of ${who}` }));
    expect(asked).toEqual({ a: ['question of a'], b: ['question of b'], c: ['question of c'], d: ['question of d'] });
    expect(results).toEqual(Object.fromEntries(WHO.map((who) => [who, `model said: ${who} answers question of ${who}`])));
  }, 60_000);

  it('does it again with the calls started in the other order, and a single caller is still asked as before', async () => {
    reset();
    const name = 'mcp__modern__deploy';
    const [rd, rc, rb, ra] = await Promise.all([
      d.callTool({ name, arguments: { env: 'd2' } }, CALL),
      c.callTool({ name, arguments: { env: 'c2' } }, undefined, CALL),
      b.callTool({ name, arguments: { env: 'b2' } }, CALL),
      a.callTool({ name, arguments: { env: 'a2' } }, CALL),
    ]);
    expect(asked).toEqual({ a: ['Deploy to a2?'], b: ['Deploy to b2?'], c: ['Deploy to c2?'], d: ['Deploy to d2?'] });
    expect([ra, rb, rc, rd].map((r) => textOf(r))).toEqual(['deployed to a2', 'deploy cancelled', 'deploy cancelled', 'deployed to d2']);
    // Alone on the server (nobody to wait for): asked and answered at once.
    asked = { a: [], b: [], c: [], d: [] };
    gather = gathering(1);
    expect(textOf(await a.callTool({ name, arguments: { env: 'solo' } }, CALL))).toBe('deployed to solo');
    expect(asked).toEqual({ a: ['Deploy to solo?'], b: [], c: [], d: [] });
  }, 60_000);
});
