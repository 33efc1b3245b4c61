// The exec-server launcher end to end: real MCP servers (an SDK v2 fixture and server-everything)
// started on an exec-server process and used through the SDK Client over the launcher's transport.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentConfig } from '../../../src/config/index.js';
import { selectLauncher, type LaunchedServer, type StdioLauncher, type StdioServerSpec } from '../../../src/mcp-client/index.js';
import { nullLogger } from '../../../src/util/index.js';
import { EVERYTHING, startExecServerProcess, type ExecServerProcess } from '../../support/exec-processes.js';
import { isAlive, killQuietly } from '../../support/process-tree.js';
import { waitFor } from '../../support/wait.js';
import { expectNoiseSkipped, NOISY_SERVER_ARGS } from '../../support/noisy-server.js';
import { fixtureProgram } from '../../support/fixture-bundles.js';

const TOKEN = randomBytes(24).toString('base64url');
// The chaos fixture, healthy, with the tools that show where and how it runs (whoami, counter, ...).
const FIXTURE = fixtureProgram('chaos-server.ts');
const FIXTURE_ARGS = [FIXTURE, '--process-tools'];
let dir: string;
let tokenFile: string;
let server: ExecServerProcess;
const leftovers: number[] = [];

/** Stands in for the local launcher, which another part provides; these tests must never reach it. */
const localLauncher: StdioLauncher = {
  kind: 'local',
  launch: () => Promise.reject(new Error('the local launcher must not be used for a server with an environment')),
};

/** This machine's environment as the launcher sees it: the token variable, a local value, and a secret. */
const LOCAL_ENV = { EXEC_TOKEN: TOKEN, LOCAL_VALUE: 'from-the-client', NOT_NAMED: 'must-not-travel', PATH: process.env.PATH };

function environments(url: string): Record<string, EnvironmentConfig> {
  return {
    remote: { id: 'remote', type: 'exec-server', url, token_env_var: 'EXEC_TOKEN' },
    badtoken: { id: 'badtoken', type: 'exec-server', url, token_env_var: 'WRONG_TOKEN' },
  };
}

function spec(overrides: Partial<StdioServerSpec> = {}): StdioServerSpec {
  return { serverName: 'echo', command: process.execPath, args: FIXTURE_ARGS, env: null, envVars: [], cwd: dir, ...overrides };
}

async function launch(url: string, s: StdioServerSpec, environment = 'remote', env: NodeJS.ProcessEnv = LOCAL_ENV): Promise<LaunchedServer> {
  const launcher = selectLauncher({ name: s.serverName, environment }, { local: localLauncher, environments: environments(url), env });
  expect(launcher.kind).toBe('exec-server');
  return launcher.launch(s, { logger: nullLogger });
}

async function connect(launched: LaunchedServer): Promise<Client> {
  const client = new Client({ name: 'exec-test', version: '1.0.0' });
  await client.connect(launched.transport);
  return client;
}

function text(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0]!).text;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-execl-'));
  tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  // The executor's own environment: REMOTE_VALUE exists only there.
  server = await startExecServerProcess(['--token-file', tokenFile], { env: { ...process.env, REMOTE_VALUE: 'from-the-executor', NOT_NAMED: 'executor-secret' } });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  killQuietly(leftovers);
  rmSync(dir, { recursive: true, force: true });
});

describe('executor launcher', { timeout: 60_000 }, () => {
  it('runs an SDK stdio server remotely with Codex cwd and environment rules', async () => {
    const launched = await launch(
      server.url,
      spec({
        env: { LITERAL: 'literal', LOCAL_VALUE: 'literal-wins' },
        envVars: [
          { name: 'LOCAL_VALUE', source: 'local' },
          { name: 'REMOTE_VALUE', source: 'remote' },
          { name: 'UNSET_LOCALLY', source: 'local' },
        ],
      }),
    );
    expect(launched.describe()).toMatch(/^exec-server ws:\/\/127\.0\.0\.1:\d+ pid \d+$/);
    const client = await connect(launched);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['add', 'counter', 'echo', 'slow', 'spawn-grandchild', 'whoami']);
      const who = JSON.parse(text(await client.callTool({ name: 'whoami', arguments: {} }))) as { pid: number; cwd: string; env: Record<string, string> };
      leftovers.push(who.pid);
      expect(who.cwd).toBe(dir);
      expect(who.env.LITERAL).toBe('literal');
      expect(who.env.LOCAL_VALUE).toBe('literal-wins');
      expect(who.env.REMOTE_VALUE).toBe('from-the-executor');
      expect(who.env).not.toHaveProperty('NOT_NAMED');
      expect(who.env).not.toHaveProperty('EXEC_TOKEN');
      expect(who.env).not.toHaveProperty('UNSET_LOCALLY');
      expect(who.env.PATH).toBe(process.env.PATH);
      expect(launched.stderrTail()).toContain('chaos-server: process tools ready');
    } finally {
      await client.close();
    }
  });

  it('carries 1 MiB payloads intact and keeps requests in order', async () => {
    const launched = await launch(server.url, spec());
    const client = await connect(launched);
    try {
      const payloads = [1, 2, 3, 4].map((i) => `${i}:` + randomBytes(768 * 1024).toString('base64').slice(0, 1024 * 1024 - 2));
      const results = await Promise.all(payloads.map((p) => client.callTool({ name: 'echo', arguments: { text: p } })));
      results.forEach((r, i) => expect(text(r) === payloads[i]).toBe(true));
      const counts = await Promise.all(Array.from({ length: 20 }, () => client.callTool({ name: 'counter', arguments: {} })));
      expect(counts.map(text)).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    } finally {
      await client.close();
    }
  });

  it('runs @modelcontextprotocol/server-everything next to a local stdio server', async () => {
    const launched = await launch(server.url, spec({ serverName: 'everything', args: [EVERYTHING, 'stdio'] }));
    const remote = await connect(launched);
    const local = new Client({ name: 'exec-test-local', version: '1.0.0' });
    await local.connect(new StdioClientTransport({ command: process.execPath, args: FIXTURE_ARGS, stderr: 'pipe' }));
    try {
      const names = (await remote.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      const [sum, echoed, localEcho] = await Promise.all([
        remote.callTool({ name: 'get-sum', arguments: { a: 20, b: 22 } }),
        remote.callTool({ name: 'echo', arguments: { message: 'over the executor' } }),
        local.callTool({ name: 'echo', arguments: { text: 'local' } }),
      ]);
      expect(text(sum)).toContain('42');
      expect(text(echoed)).toContain('over the executor');
      expect(text(localEcho)).toBe('local');
    } finally {
      await Promise.all([remote.close(), local.close()]);
    }
  });

  it('skips stdout lines that are not JSON-RPC and logs them at warn, as for a local server', async () => {
    const launcher = selectLauncher({ name: 'noisy', environment: 'remote' }, { local: localLauncher, environments: environments(server.url), env: LOCAL_ENV });
    await expectNoiseSkipped((logger) => launcher.launch(spec({ serverName: 'noisy', args: NOISY_SERVER_ARGS }), { logger }));
  });

  it('close() kills the remote process group, grandchildren included', async () => {
    const launched = await launch(server.url, spec());
    const client = await connect(launched);
    const who = JSON.parse(text(await client.callTool({ name: 'whoami', arguments: {} }))) as { pid: number };
    const grandchild = Number(text(await client.callTool({ name: 'spawn-grandchild', arguments: {} })));
    leftovers.push(who.pid, grandchild);
    expect(isAlive(who.pid) && isAlive(grandchild)).toBe(true);
    let closed = false;
    client.onclose = () => (closed = true);
    await client.close();
    expect(closed).toBe(true);
    await waitFor(() => !isAlive(who.pid) && !isAlive(grandchild), 'the remote process group to die', 15_000);
  });

  it('closes the transport promptly when the exec-server dies', async () => {
    const own = await startExecServerProcess(['--token-file', tokenFile]);
    const launched = await launch(own.url, spec());
    const client = await connect(launched);
    const who = JSON.parse(text(await client.callTool({ name: 'whoami', arguments: {} }))) as { pid: number };
    leftovers.push(who.pid);
    const closed = new Promise<number>((resolve) => (client.onclose = () => resolve(Date.now())));
    const killedAt = Date.now();
    own.child.kill('SIGKILL');
    const closedAt = await closed;
    expect(closedAt - killedAt).toBeLessThan(10_000);
    await expect(client.callTool({ name: 'counter', arguments: {} })).rejects.toThrow();
    // The orphaned server sees EOF on stdin and exits by itself.
    await waitFor(() => !isAlive(who.pid), 'the orphaned fixture to exit', 15_000);
  });

  it('reports configuration and start errors clearly', async () => {
    await expect(launch(server.url, spec({ cwd: null }))).rejects.toThrow('executor stdio server requires an explicit cwd');
    await expect(launch(server.url, spec({ args: ['\uD800'] }))).rejects.toThrow('argument must be valid Unicode for remote MCP stdio');
    await expect(launch(server.url, spec({ env: { BAD: 'x\uDC00' } }))).rejects.toThrow('environment variable value must be valid Unicode for remote MCP stdio');
    await expect(launch(server.url, spec({ envVars: [{ name: 'OS_VALUE', source: 'local' }] }), 'remote', { ...LOCAL_ENV, OS_VALUE: 'bad\uFFFDbytes' })).rejects.toThrow(
      'environment variable value must be valid Unicode for remote MCP stdio',
    );
    await expect(launch(server.url, spec({ cwd: path.join(dir, 'missing') }))).rejects.toThrow('does not exist on the executor');
    await expect(launch(server.url, spec({ command: '/no/such/program' }))).rejects.toThrow("cannot start MCP server 'echo'");
    await expect(launch(server.url, spec(), 'badtoken')).rejects.toThrow("Environment variable WRONG_TOKEN for exec-server environment 'badtoken' is not set");
    await expect(launch(server.url, spec(), 'badtoken', { ...LOCAL_ENV, WRONG_TOKEN: 'nope' })).rejects.toMatchObject({ code: 'exec_auth_failed' });
    expect(() => selectLauncher({ name: 'echo', environment: 'elsewhere' }, { local: localLauncher, environments: environments(server.url) })).toThrow(
      "MCP server 'echo' uses environment 'elsewhere', which is not defined (defined: remote, badtoken)",
    );
  });
});
