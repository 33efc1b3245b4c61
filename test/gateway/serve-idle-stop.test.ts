// `switchboard serve --http` with stop_after_idle_sec on its stdio upstream: the upstream process exits
// once it has had nothing running that long; clients of both eras still list its tools and get its
// instructions without starting it again; their next call starts it (a new process) and is answered.
// A stdio upstream that sets none takes serve's mcp_stop_after_idle_sec; one at 0 runs on.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { fixtureProgram } from '../support/fixture-bundles.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { descendants } from '../support/process-tree.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { textOf, UPSTREAM_FIXTURE } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const CALL = { timeout: 60_000 };
const INSTRUCTIONS = 'Use the solo tools for echoing.';
const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');
const Loose = z.looseObject({});

describe('switchboard serve --http: an upstream stopped after stop_after_idle_sec', () => {
  let serve: ServeProcess;
  let home: string;
  const clients: Client[] = [];

  const upstreamPids = async (): Promise<number[]> => (await descendants(serve.child.pid!)).filter((p) => p.command.includes(UPSTREAM_FIXTURE)).map((p) => p.pid);
  async function connect(era: 'modern' | 'legacy'): Promise<Client> {
    const client = new Client({ name: era, version: '1.0.0' }, { capabilities: {}, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}) });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    clients.push(client);
    return client;
  }
  const echo = (client: Client, text: string) => client.callTool({ name: 'mcp__solo__echo', arguments: { text } }, CALL).then(textOf);

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-idle-');
    const work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.solo]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "solo", GW_INSTRUCTIONS = ${JSON.stringify(INSTRUCTIONS)} }\nstop_after_idle_sec = 1\nrequired = true\n` +
        `[mcp_servers.tasks]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(TASK_FIXTURE)}]\nstop_after_idle_sec = 0.5\n`,
    );
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth', '--verbose'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: work });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it.each(['modern', 'legacy'] as const)('%s client: stopped when idle, listed and described while stopped, started again by the next call', async (era) => {
    const client = await connect(era);
    expect(await echo(client, 'one')).toBe('solo:one');
    const [first] = await upstreamPids();
    expect(first).toBeDefined();

    await waitFor(async () => (await upstreamPids()).length === 0, 'the idle upstream to exit', 20_000);
    expect(serve.stderr()).toMatch(/MCP server 'solo' stopped after [\d.]+ s with nothing running \(stop_after_idle_sec\); its next use starts it again/);
    // Stopped for being idle is healthy: the required server keeps the gateway ready, and operators see why it is idle.
    const ops = (p: string) => fetch(new URL(p, serve.url));
    expect((await ops('/readyz')).status).toBe(200);
    const { upstreams } = (await (await ops('/ops/status')).json()) as { upstreams: { name: string; state: string; stopped_idle_at?: number }[] };
    expect(upstreams.find((u) => u.name === 'solo')).toMatchObject({ state: 'idle', stopped_idle_at: expect.any(Number) });

    // Listing, and a new client's initialize, are answered from what the gateway kept: nothing starts.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('mcp__solo__echo');
    const late = await connect(era);
    expect(late.getInstructions()).toContain(INSTRUCTIONS);
    expect(await upstreamPids()).toEqual([]);

    expect(await echo(late, 'two')).toBe('solo:two');
    const after = await upstreamPids();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(first);
    expect(await echo(client, 'three')).toBe('solo:three');
  }, 90_000);

  it("keeps an upstream while the gateway holds a task of it, so a 2025 client's late tasks/result is answered", async () => {
    const client = await connect('legacy');
    const created = await client.request({ method: 'tools/call', params: { name: 'mcp__tasks__work', arguments: { label: 'kept', steps: 2, stepMs: 50 }, task: { ttl: 60_000 } } }, Loose, CALL);
    const { taskId } = created.task as { taskId: string };
    const taskPids = async () => (await descendants(serve.child.pid!)).filter((p) => p.command.includes(TASK_FIXTURE)).map((p) => p.pid);
    const [pid] = await taskPids();
    // Four times the idle time with nothing running on it: the task's result lives only in its process.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await taskPids()).toEqual([pid]);
    expect(textOf((await client.request({ method: 'tasks/result', params: { taskId } } as never, Loose, CALL)) as never)).toBe('done kept');
  }, 60_000);
});

describe("switchboard serve --http: mcp_stop_after_idle_sec, the default of stdio upstreams that set none", () => {
  let serve: ServeProcess;
  let home: string;
  let client: Client;
  // Each upstream's command line ends with its name (the fixture ignores the argument).
  const pidsOf = async (name: string) => (await descendants(serve.child.pid!)).filter((p) => p.command.includes(UPSTREAM_FIXTURE) && p.command.endsWith(` ${name}`)).map((p) => p.pid);

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-serve-idle-default-');
    const upstream = (name: string, extra = '') => `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}, "${name}"]\nenv = { GW_NAME = "${name}" }\n${extra}`;
    await writeFile(path.join(home, 'config.toml'), `mcp_stop_after_idle_sec = 1\n${upstream('plain')}${upstream('kept', 'stop_after_idle_sec = 0\n')}`);
    serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth', '--verbose'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: home });
    client = new Client({ name: 'default', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
  }, 60_000);
  afterAll(async () => {
    await client?.close().catch(() => {});
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it('stops the upstream without stop_after_idle_sec and says which setting did; keeps the one at 0', async () => {
    const call = (name: string) => client.callTool({ name: `mcp__${name}__echo`, arguments: { text: 'x' } }, CALL).then(textOf);
    expect([await call('plain'), await call('kept')]).toEqual(['plain:x', 'kept:x']);
    const [plain] = await pidsOf('plain');
    const [kept] = await pidsOf('kept');
    expect(plain).toBeDefined();
    await waitFor(async () => (await pidsOf('plain')).length === 0, 'the idle upstream without the setting to exit', 20_000);
    expect(serve.stderr()).toMatch(/MCP server 'plain' stopped after [\d.]+ s with nothing running \(mcp_stop_after_idle_sec, the default for a stdio server; stop_after_idle_sec = 0 keeps it running\)/);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await pidsOf('kept')).toEqual([kept]);
    expect(await call('plain')).toBe('plain:x');
    expect((await pidsOf('plain'))[0]).not.toBe(plain);
  }, 60_000);
});
