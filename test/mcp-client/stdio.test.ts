// Local stdio servers: SDK v2 and v1 peers, the env allow list, stderr handling, process groups, and
// children that exit, print garbage or close stdout mid-call.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalLauncher } from '../../src/mcp-client/index.js';
import { capturingLogger, clientPool, failure, fixtureStdio, serverConfig, textOf } from './helpers.js';
import { waitFor } from '../support/wait.js';

const pool = clientPool();
afterEach(() => pool.closeAll());


describe.each([
  ['SDK v2', 'stdio-v2-server.mjs', 'fixture-v2'],
  ['SDK v1', 'stdio-v1-server.mjs', 'fixture-v1'],
])('stdio server built on %s', (_label, file, serverName) => {
  it('initializes, lists tools and calls one', async () => {
    const client = pool.create(fixtureStdio('fx', file));
    const ready = await client.connect();
    expect(ready.serverInfo?.name).toBe(serverName);
    expect(client.status.kind).toBe('ready');
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const result = await client.callTool('echo', { text: 'hi there' });
    expect(textOf(result)).toBe('hi there');
  });

  it('keeps a parent secret out of the server unless env_vars names it', async () => {
    const launcher = createLocalLauncher({ parentEnv: { ...process.env, OPENAI_API_KEY: 'sk-test-secret', SB_SHARED: 'shared-value' } });
    const plain = pool.create(fixtureStdio('fx', file), { launcher });
    await plain.connect();
    expect(textOf(await plain.callTool('env', { name: 'OPENAI_API_KEY' }))).toBe('<unset>');
    expect(textOf(await plain.callTool('env', { name: 'PATH' }))).toBe(process.env.PATH);
    const named = pool.create(fixtureStdio('fx2', file, { env_vars: ['SB_SHARED'], env: { LITERAL: 'lit' } }), { launcher });
    await named.connect();
    expect(textOf(await named.callTool('env', { name: 'SB_SHARED' }))).toBe('shared-value');
    expect(textOf(await named.callTool('env', { name: 'LITERAL' }))).toBe('lit');
    expect(textOf(await named.callTool('env', { name: 'OPENAI_API_KEY' }))).toBe('<unset>');
  });
});

describe('stdio transport failures', () => {
  it('logs stderr lines and never mixes them into results', async () => {
    const logger = capturingLogger();
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs', { env: { FIXTURE_STDERR_BANNER: 'hello from stderr' } }), { logger });
    await client.connect();
    await waitFor(() => logger.lines.some((l) => l.includes(`MCP server stderr (${process.execPath}): hello from stderr`)), 'stderr line', 10_000);
  });

  it('a child that exits mid-call fails the call and the connection with its exit code', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'));
    await client.connect();
    const err = await failure(client.callTool('exit', { code: 3 }));
    expect(err.code).toBe('process_exited');
    expect(err.message).toContain('exited with code 3');
    expect(client.status.kind).toBe('failed');
    const next = await failure(client.callTool('echo', { text: 'x' }));
    expect(next.code).toBe('process_exited');
  });

  it('a child that prints non-JSON on stdout mid-call: the line is skipped and logged at warn, the call answered', async () => {
    const logger = capturingLogger();
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'), { logger });
    await client.connect();
    expect(textOf(await client.callTool('garbage', {}))).toBe('answered after garbage');
    expect(logger.lines.filter((l) => l.includes(' WARN '))).toEqual([
      expect.stringContaining(`MCP server \`${process.execPath}\` wrote a stdout line that is not JSON; skipped: this is not json-rpc`),
    ]);
    expect(client.status.kind).toBe('ready');
    expect(textOf(await client.callTool('echo', { text: 'still here' }))).toBe('still here');
  });

  it('a child that closes stdout mid-call fails the call and is killed', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'));
    await client.connect();
    const err = await failure(client.callTool('close_stdout', {}));
    expect(['connection_closed', 'process_exited']).toContain(err.code);
    expect(client.status.kind).toBe('failed');
  });

  it('a program that does not exist fails connect with launch_failed', async () => {
    const client = pool.create(serverConfig('missing', { command: '/nonexistent/mcp-server-binary' }));
    const err = await failure(client.connect());
    expect(err.code).toBe('launch_failed');
    expect(client.status.kind).toBe('failed');
  });

  it('a server that exits during startup reports its stderr tail', async () => {
    const client = pool.create(serverConfig('dies', { command: 'sh', args: ['-c', 'echo "fatal: no config" >&2; exit 2'] }));
    const err = await failure(client.connect());
    expect(err.code).toBe('process_exited');
    expect(err.message).toContain('exited with code 2');
    expect(err.message).toContain('fatal: no config');
  });

  it('a remote env_vars source fails with Codex text', async () => {
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs', { env_vars: [{ name: 'X', source: 'remote' }] }));
    const err = await failure(client.connect());
    expect(err.code).toBe('config');
    expect(err.message).toBe('env_vars entry `X` uses source `remote`, which requires remote MCP stdio');
  });

  it('a silent server times out with the handshake text', async () => {
    const client = pool.create(serverConfig('silent', { command: 'sh', args: ['-c', 'exec sleep 60'], startup_timeout_sec: 1 }));
    const err = await failure(client.connect());
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('timed out handshaking with MCP server after 1s');
  });
});

describe('process groups', () => {
  it("close() leaves no orphan: sh -c 'sleep 300 & exec cat' loses its sleep", async () => {
    const seconds = 300 + Math.floor(Math.random() * 9000);
    const marker = `sleep ${seconds}`;
    // `cat` echoes our initialize back, which is not a response: the handshake never completes, but
    // the process group exists — exactly the npx-style wrapper case.
    const client = pool.create(serverConfig('wrapper', { command: 'sh', args: ['-c', `${marker} & exec cat`], startup_timeout_sec: 30 }));
    const connecting = client.connect().catch(() => undefined);
    const sleepers = () => {
      try {
        return execFileSync('pgrep', ['-f', `^${marker}$`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    };
    await waitFor(() => sleepers().length > 0, 'the grandchild sleep', 10_000);
    await client.close();
    await connecting;
    await waitFor(() => sleepers().length === 0, 'the grandchild to die', 5_000);
  });
});

describe('lifecycle', () => {
  it('moves connecting → ready → closed, and refuses work once closed', async () => {
    const states: string[] = [];
    const client = pool.create(fixtureStdio('fx', 'stdio-v2-server.mjs'), { handlers: { onStateChange: (s) => states.push(s.kind) } });
    expect(client.status.kind).toBe('connecting');
    expect((await failure(client.listTools())).code).toBe('not_ready');
    await client.connect();
    const pending = failure(client.callTool('slow', { ms: 30_000 }));
    await client.close();
    expect((await pending).code).toBe('closed');
    expect((await failure(client.callTool('echo', { text: 'x' }))).message).toBe('MCP client is shut down');
    expect(states).toEqual(['connecting', 'ready', 'closed']);
  });
});
