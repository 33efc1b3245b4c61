// A running `switchboard mcp-server --http` (the built CLI, the fake model, chaos-server upstreams)
// follows its config.toml: a server added by an editor's save is a tool of the agent's next turn, the
// unchanged server keeps its process, the connected client keeps its session, and a broken save keeps
// the old configuration serving and is reported on /readyz until the fix applies.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { revisionOf, saveAsEditor } from '../support/config-save.js';
import { makeServerHome, spawnHttpServer, type ServerHome } from '../support/mcp-server-harness.js';
import { killProcessesByMarker } from '../support/process-tree.js';
import { waitFor } from '../support/wait.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const CHAOS = fixtureProgram('chaos-server.ts');
const TOKEN = 'reload-test-token-0123456789';
const q = JSON.stringify;

describe('switchboard mcp-server --http: config.toml changes while a client is connected', () => {
  const marker = `agent-reload-${process.pid}-${Date.now()}`;
  let model: FakeModelServer;
  let sh: ServerHome;
  let server: Awaited<ReturnType<typeof spawnHttpServer>>;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let file: string;
  let turns = 0;
  const chaos = (name: string) => `[mcp_servers.${name}]\ncommand = ${q(process.execPath)}\nargs = [${q(CHAOS)}, "--process-tools", "--marker", ${q(marker)}]\n`;
  const readyz = async () => (await fetch(new URL('/readyz', server.url))).text();

  const save = (text: string) => saveAsEditor(file, text);

  /** One codex turn in which the model calls `tool`; returns what the tool answered the model. */
  async function toolOutput(tool: string, args: Record<string, unknown>): Promise<string> {
    const n = turns++;
    model.enqueue(responsesTurn({ calls: [{ id: `c${n}`, name: tool, args }] }), responsesTurn({ text: `done ${n}` }));
    const before = model.requests.length;
    const result = await client.callTool({ name: 'codex', arguments: { prompt: `call ${tool}` } }, { timeout: 60_000 });
    expect((result.content as { text: string }[])[0]!.text).toBe(`done ${n}`);
    const input = model.requests[before + 1]!.body.input as { type: string; call_id?: string; output?: unknown }[];
    return JSON.stringify(input.find((i) => i.type === 'function_call_output' && i.call_id === `c${n}`)?.output);
  }
  const pidOfKeep = async () => {
    const out = await toolOutput('mcp__keep__whoami', {});
    const pid = Number(/pid[^0-9]+(\d+)/.exec(out)?.[1]);
    if (!(pid > 0)) throw new Error(`no pid in the whoami output: ${out}`);
    return pid;
  };

  beforeAll(async () => {
    model = await startFakeModelServer();
    sh = await makeServerHome(model, `approval_policy = "never"\n`);
    file = path.join(sh.home, 'config.toml');
    // makeServerHome's file, with approvals off (tool calls run without asking) and the keep server.
    const base = (await readFile(file, 'utf8')).replace('approval_policy = "untrusted"\n', '');
    await writeFile(file, `${base}\n${chaos('keep')}`);
    server = await spawnHttpServer(sh, [], { SWITCHBOARD_MCP_TOKEN: TOKEN });
    client = new Client({ name: 'reload-agent-client', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    await client.connect(transport);
  }, 60_000);

  afterAll(async () => {
    await client?.close().catch(() => {});
    await server?.stop();
    await killProcessesByMarker(marker);
    await model?.close();
    await sh?.cleanup();
  });

  it('gives the next turn an added server, keeps the unchanged one and the session, and refuses a broken save', async () => {
    const pid = await pidOfKeep();
    expect(pid).toBeGreaterThan(0);
    const session = transport.sessionId;
    const inForce = await readFile(file, 'utf8');
    expect(await readyz()).toContain(`config revision ${revisionOf(inForce)}\n`);

    const added = `${inForce}${chaos('added')}`;
    await save(added);
    await waitFor(async () => (await readyz()).includes(`config revision ${revisionOf(added)}\n`), 'the added server to be in force', 20_000);
    expect(await toolOutput('mcp__added__echo', { text: 'from the added server' })).toContain('from the added server');
    expect(await pidOfKeep()).toBe(pid);
    expect(transport.sessionId).toBe(session);

    await save(`${added}\n[mcp_servers.broken\n`);
    await waitFor(async () => (await readyz()).includes('config reload failed'), '/readyz to report the broken save', 20_000);
    const body = await readyz();
    expect(body).toMatch(new RegExp(`config revision ${revisionOf(added)}\nconfig reload failed at line \\d+, column 1; revision ${revisionOf(added)} still serves`));
    expect(await toolOutput('mcp__added__echo', { text: 'still served' })).toContain('still served');

    await save(inForce);
    await waitFor(async () => (await readyz()) === `ready\nconfig revision ${revisionOf(inForce)}\n`, 'the fixed file to be in force', 20_000);
    expect(await toolOutput('mcp__added__echo', { text: 'echo-after-removal' })).not.toContain('echo-after-removal');
    expect(await pidOfKeep()).toBe(pid);
  }, 120_000);
});
