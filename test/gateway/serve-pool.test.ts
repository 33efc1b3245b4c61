// `switchboard serve --http` as a process with many clients at once: one pool of upstream connections,
// so one stdio upstream process however many sessions are open (counted in the gateway's process
// tree); every call succeeds; an elicitation reaches the client whose call caused it; a session that
// ends leaves the others and the upstream running; stopping the gateway ends the upstream.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { requireBuild } from '../support/mcp-server-harness.js';
import { descendants, isAlive } from '../support/process-tree.js';
import { removeTree, tempDir } from '../support/temp.js';
import { textOf, UPSTREAM_FIXTURE } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const CALL = { timeout: 60_000 };

describe('switchboard serve --http: one upstream process for many clients', () => {
  let serve: ServeProcess;
  let home: string;
  const open: { client: Client; transport: StreamableHTTPClientTransport }[] = [];

  async function connect(name: string, setup?: (client: Client) => void): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const capabilities = setup ? { elicitation: { form: {} } } : {};
    const client = new Client({ name, version: '1.0.0' }, { capabilities });
    setup?.(client);
    const transport = new StreamableHTTPClientTransport(new URL(serve.url));
    await client.connect(transport);
    const c = { client, transport };
    open.push(c);
    return c;
  }
  const upstreamPids = async (): Promise<number[]> => (await descendants(serve.child.pid!)).filter((p) => p.command.includes(UPSTREAM_FIXTURE)).map((p) => p.pid);
  const echo = (c: { client: Client }, text: string) => c.client.callTool({ name: 'mcp__solo__echo', arguments: { text } }, CALL).then(textOf);

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-pool-');
    const work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.solo]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "solo" }\n`);
    // Room for the 20 + 2 + 2 sessions of this file: the session bound is not what is measured here.
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], {
      env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home },
      cwd: work,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(open.map((c) => c.client.close().catch(() => {})));
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it('serves two clients at once with one upstream process', async () => {
    const [a, b] = await Promise.all([connect('a'), connect('b')]);
    const answers = await Promise.all([a, b].flatMap((c, i) => [1, 2, 3, 4, 5].map((n) => echo(c, `${i}-${n}`))));
    expect(answers).toEqual([0, 1].flatMap((i) => [1, 2, 3, 4, 5].map((n) => `solo:${i}-${n}`)));
    expect(await upstreamPids()).toHaveLength(1);
  }, 60_000);

  it('serves twenty clients connecting at once, twenty calls each, all succeeding, still with one upstream process', async () => {
    const before = await upstreamPids();
    const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => connect(`many-${i}`)));
    const answers = await Promise.all(clients.map(async (c, i) => {
      const mine: string[] = [];
      for (let n = 0; n < 20; n++) mine.push(await echo(c, `${i}.${n}`));
      return mine;
    }));
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => Array.from({ length: 20 }, (_, n) => `solo:${i}.${n}`)));
    expect(await upstreamPids()).toEqual(before);
  }, 120_000);

  // A 2025 server's request carries no link to the call that caused it: while calls of two clients
  // run on one such server, its elicitation is refused rather than shown to the wrong one (a
  // 2026-07-28 server's questions are routed by call: serve-2026-concurrent.test.ts).
  it("refuses an upstream's elicitation while another client's call runs on that server, and asks the caller once it runs alone", async () => {
    const asked: string[] = [];
    const answering = (who: string) => (client: Client) =>
      client.setRequestHandler('elicitation/create', async () => {
        asked.push(who);
        return { action: 'accept', content: { answer: `from ${who}` } };
      });
    const [a, b] = await Promise.all([connect('asker', answering('asker')), connect('bystander', answering('bystander'))]);
    // The bystander's call runs upstream from its first progress notification on (about a second in all).
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const long = b.client.callTool({ name: 'mcp__solo__chatter', arguments: { steps: 50 } }, { ...CALL, onprogress: () => running() });
    await started;
    const refused = await a.client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'who?' } }, CALL);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/calls of several clients are running on MCP server 'solo'/);
    expect(textOf(await long)).toBe('solo:chattered 50');
    const r = await a.client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'who?' } }, CALL);
    expect(JSON.parse(textOf(r))).toEqual({ action: 'accept', content: { answer: 'from asker' } });
    expect(asked).toEqual(['asker']);
  }, 60_000);

  it('keeps the other sessions and the upstream running when one session ends; stopping the gateway ends the upstream', async () => {
    const pids = await upstreamPids();
    expect(pids).toHaveLength(1);
    const [gone, staying] = await Promise.all([connect('gone'), connect('staying')]);
    await gone.transport.terminateSession();
    await gone.client.close();
    expect(await echo(staying, 'after a session ended')).toBe('solo:after a session ended');
    expect(await upstreamPids()).toEqual(pids);
    expect(await serve.stop()).toBe(0);
    expect(isAlive(pids[0]!)).toBe(false);
  }, 60_000);
});
