// The ssh launcher against a real sshd on a loopback port: MCP over the system ssh client, Codex's
// cwd/env rules, values kept off command lines, and the remote process group killed on close.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentConfig } from '../../../src/config/index.js';
import { selectLauncher, type LaunchedServer, type StdioLauncher, type StdioServerSpec } from '../../../src/mcp-client/index.js';
import { nullLogger } from '../../../src/util/index.js';
import { isAlive, killQuietly } from '../../support/process-tree.js';
import { waitFor } from '../../support/wait.js';
import { startTestSshd, type TestSshd } from '../../support/test-sshd.js';
import { expectNoiseSkipped, NOISY_SERVER_ARGS } from '../../support/noisy-server.js';
import { fixtureProgram } from '../../support/fixture-bundles.js';

// The chaos fixture, healthy, with the tools that show where and how it runs (whoami, counter, ...).
const FIXTURE = fixtureProgram('chaos-server.ts');
const FIXTURE_ARGS = [FIXTURE, '--process-tools'];
const SECRET_VALUE = `secret-${randomBytes(8).toString('hex')}`;
const LOCAL_ENV = { LOCAL_VALUE: SECRET_VALUE, NOT_NAMED: 'must-not-travel', PATH: process.env.PATH, HOME: process.env.HOME };
let dir: string;
let sshd: TestSshd | { skip: string };
const leftovers: number[] = [];

const localLauncher: StdioLauncher = {
  kind: 'local',
  launch: () => Promise.reject(new Error('the local launcher must not be used for a server with an environment')),
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-ssh-'));
  sshd = await startTestSshd(dir, { REMOTE_VALUE: 'from-sshd' });
}, 60_000);

afterAll(async () => {
  killQuietly(leftovers);
  if (sshd && !('skip' in sshd)) await sshd.stop();
  rmSync(dir, { recursive: true, force: true });
});

function running(): TestSshd {
  if ('skip' in sshd) throw new Error(sshd.skip);
  return sshd;
}

function launcher(options: { sshOptions?: string[] } = {}): StdioLauncher {
  const s = running();
  const environments: Record<string, EnvironmentConfig> = {
    box: { id: 'box', type: 'ssh', host: '127.0.0.1', user: s.user, port: s.port, identity_file: s.identityFile },
  };
  const l = selectLauncher({ name: 'echo', environment: 'box' }, { local: localLauncher, environments, env: LOCAL_ENV, ssh: { extraOptions: options.sshOptions ?? s.sshOptions } });
  expect(l.kind).toBe('ssh');
  return l;
}

function spec(overrides: Partial<StdioServerSpec> = {}): StdioServerSpec {
  return { serverName: 'echo', command: process.execPath, args: FIXTURE_ARGS, env: null, envVars: [], cwd: dir, ...overrides };
}

async function connect(launched: LaunchedServer): Promise<Client> {
  const client = new Client({ name: 'ssh-test', version: '1.0.0' });
  await client.connect(launched.transport);
  return client;
}

function text(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

function sshPid(launched: LaunchedServer): number {
  return Number(/local ssh pid (\d+)/.exec(launched.describe())![1]);
}

/** Waits for the transport to close without an MCP client on it. */
async function endedTail(launched: LaunchedServer): Promise<string> {
  const closed = new Promise<void>((resolve) => (launched.transport.onclose = () => resolve()));
  await launched.transport.start();
  await closed;
  return launched.stderrTail().join('\n');
}

describe('ssh launcher', { tags: ['sshd'], timeout: 90_000 }, () => {
  it('has a real sshd to test against (or says why not)', (ctx) => {
    if ('skip' in sshd) ctx.skip(`sshd unavailable: ${sshd.skip}`);
    expect(running().port).toBeGreaterThan(0);
  });

  it('runs an SDK stdio server over ssh with the cwd and environment rules', async (ctx) => {
    if ('skip' in sshd) return ctx.skip(`sshd unavailable: ${sshd.skip}`);
    const launched = await launcher().launch(
      spec({
        env: { LITERAL: "it's a\nmulti-line \\ value" },
        envVars: [
          { name: 'LOCAL_VALUE', source: 'local' },
          { name: 'REMOTE_VALUE', source: 'remote' },
        ],
      }),
      { logger: nullLogger },
    );
    const client = await connect(launched);
    try {
      const who = JSON.parse(text(await client.callTool({ name: 'whoami', arguments: {} }))) as { pid: number; cwd: string; env: Record<string, string> };
      leftovers.push(who.pid);
      expect(who.cwd).toBe(dir);
      expect(who.env.LITERAL).toBe("it's a\nmulti-line \\ value");
      expect(who.env.LOCAL_VALUE).toBe(SECRET_VALUE);
      expect(who.env.REMOTE_VALUE).toBe('from-sshd');
      expect(who.env).not.toHaveProperty('NOT_NAMED');
      expect(who.env.HOME).toBe(os.userInfo().homedir);
      // Values travel on stdin, never on a command line another user could read.
      expect(readFileSync(`/proc/${sshPid(launched)}/cmdline`, 'utf8')).not.toContain(SECRET_VALUE);
      const parent = Number(readFileSync(`/proc/${who.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      expect(readFileSync(`/proc/${parent}/cmdline`, 'utf8')).not.toContain(SECRET_VALUE);

      const payloads = [1, 2].map((i) => `${i}:` + randomBytes(768 * 1024).toString('base64').slice(0, 1024 * 1024 - 2));
      const echoed = await Promise.all(payloads.map((p) => client.callTool({ name: 'echo', arguments: { text: p } })));
      echoed.forEach((r, i) => expect(text(r) === payloads[i]).toBe(true));
      const counts = await Promise.all(Array.from({ length: 10 }, () => client.callTool({ name: 'counter', arguments: {} })));
      expect(counts.map(text)).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 1)));
    } finally {
      await client.close();
    }
  });

  it('skips stdout lines that are not JSON-RPC and logs them at warn, as for a local server', async (ctx) => {
    if ('skip' in sshd) return ctx.skip(`sshd unavailable: ${sshd.skip}`);
    await expectNoiseSkipped((logger) => launcher().launch(spec({ args: NOISY_SERVER_ARGS }), { logger }));
  });

  it('close() kills the remote process group', async (ctx) => {
    if ('skip' in sshd) return ctx.skip(`sshd unavailable: ${sshd.skip}`);
    const launched = await launcher().launch(spec(), { logger: nullLogger });
    const client = await connect(launched);
    const who = JSON.parse(text(await client.callTool({ name: 'whoami', arguments: {} }))) as { pid: number };
    const grandchild = Number(text(await client.callTool({ name: 'spawn-grandchild', arguments: {} })));
    leftovers.push(who.pid, grandchild);
    await client.close();
    await waitFor(() => !isAlive(who.pid) && !isAlive(grandchild), 'the remote process group to die', 15_000);
  });

  it('a killed ssh client closes the transport and leaves no remote processes', async (ctx) => {
    if ('skip' in sshd) return ctx.skip(`sshd unavailable: ${sshd.skip}`);
    const launched = await launcher().launch(spec({ command: 'sh', args: ['-c', `sleep 300 & echo "pids $$ $!" >&2; exec ${process.execPath} ${FIXTURE_ARGS.join(' ')}`] }), { logger: nullLogger });
    const client = await connect(launched);
    const closed = new Promise<void>((resolve) => (client.onclose = () => resolve()));
    const [, leader, grandchild] = /pids (\d+) (\d+)/.exec(launched.stderrTail().join('\n'))!.map(Number);
    leftovers.push(leader!, grandchild!);
    expect(isAlive(leader!) && isAlive(grandchild!)).toBe(true);
    process.kill(sshPid(launched), 'SIGKILL');
    await closed;
    await waitFor(() => !isAlive(leader!) && !isAlive(grandchild!), 'the remote processes to die after the ssh client was killed', 15_000);
  });

  it('closes the transport when the remote server exits, keeping its stderr', async (ctx) => {
    if ('skip' in sshd) return ctx.skip(`sshd unavailable: ${sshd.skip}`);
    const launched = await launcher().launch(spec({ command: 'sh', args: ['-c', 'echo going away >&2; exit 3'] }), { logger: nullLogger });
    expect(await endedTail(launched)).toContain('going away');
    const missing = await launcher().launch(spec({ cwd: path.join(dir, 'missing') }), { logger: nullLogger });
    expect(await endedTail(missing)).toMatch(/can't cd|No such file/);
  });

  it('refuses an unknown host key instead of prompting', async (ctx) => {
    if ('skip' in sshd) return ctx.skip(`sshd unavailable: ${sshd.skip}`);
    const emptyKnownHosts = path.join(dir, 'empty_known_hosts');
    writeFileSync(emptyKnownHosts, '');
    const options = ['-F', '/dev/null', '-o', `UserKnownHostsFile=${emptyKnownHosts}`, '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'StrictHostKeyChecking=yes'];
    const launched = await launcher({ sshOptions: options }).launch(spec(), { logger: nullLogger });
    expect(await endedTail(launched)).toContain('Host key verification failed');
  });
});
