// The executor in its own network namespace, reached over a veth pair, so the MCP traffic really
// crosses a network interface. Needs root and `ip netns`; skips with the reason otherwise.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectLauncher, type StdioLauncher } from '../../src/mcp-client/index.js';
import { nullLogger } from '../../src/util/index.js';
import { startExecServerProcess, type ExecServerProcess } from '../support/exec-processes.js';
import { isAlive } from '../support/process-tree.js';
import { waitFor } from '../support/wait.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TOKEN = randomBytes(24).toString('base64url');
const suffix = randomBytes(3).toString('hex');
const NS = `sbx${suffix}`;
const HOST_IF = `sbh${suffix}`;
const NS_IF = `sbn${suffix}`;
let subnet = '';
let dir: string;
let server: ExecServerProcess | null = null;
let skipReason: string | null = null;

function ip(...args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim() };
}

function setUpNamespace(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const add = ip('netns', 'add', NS);
  if (!add.ok) return `ip netns add is not permitted here: ${add.out}`;
  const used = ip('-4', 'addr').out;
  for (let i = 0; i < 20 && subnet === ''; i++) {
    const candidate = `10.254.${randomInt(0, 256)}`;
    if (!used.includes(`${candidate}.`)) subnet = candidate;
  }
  const steps: string[][] = [
    ['link', 'add', HOST_IF, 'type', 'veth', 'peer', 'name', NS_IF],
    ['link', 'set', NS_IF, 'netns', NS],
    ['addr', 'add', `${subnet}.1/30`, 'dev', HOST_IF],
    ['link', 'set', HOST_IF, 'up'],
    ['-n', NS, 'addr', 'add', `${subnet}.2/30`, 'dev', NS_IF],
    ['-n', NS, 'link', 'set', NS_IF, 'up'],
    ['-n', NS, 'link', 'set', 'lo', 'up'],
  ];
  for (const step of steps) {
    const r = ip(...step);
    if (!r.ok) return `ip ${step.join(' ')} failed: ${r.out}`;
  }
  return null;
}

function counter(name: 'rx_bytes' | 'tx_bytes'): number {
  return Number(readFileSync(`/sys/class/net/${HOST_IF}/statistics/${name}`, 'utf8'));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-netns-'));
  skipReason = setUpNamespace();
  if (skipReason !== null) return;
  const tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  server = await startExecServerProcess(['--listen', `${subnet}.2:0`, '--token-file', tokenFile], { prefix: ['ip', 'netns', 'exec', NS] });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  ip('netns', 'del', NS);
  // Deleting the namespace removes its end of the pair, and with it ours; make sure of it anyway.
  if (ip('link', 'show', HOST_IF).ok) ip('link', 'del', HOST_IF);
  rmSync(dir, { recursive: true, force: true });
});

const localLauncher: StdioLauncher = {
  kind: 'local',
  launch: () => Promise.reject(new Error('the local launcher must not be used for a server with an environment')),
};

describe('exec-server in a network namespace', { tags: ['netns'], timeout: 60_000 }, () => {
  it('serves an MCP server across a veth pair', async (ctx) => {
    if (skipReason !== null) return ctx.skip(`skipped: ${skipReason}`);
    expect(server!.url).toBe(`ws://${subnet}.2:${new URL(server!.url).port}`);
    const launcher = selectLauncher(
      { name: 'echo', environment: 'ns' },
      { local: localLauncher, environments: { ns: { id: 'ns', type: 'exec-server', url: server!.url, token_env_var: 'NS_TOKEN' } }, env: { NS_TOKEN: TOKEN } },
    );
    const rx = counter('rx_bytes');
    const tx = counter('tx_bytes');
    const launched = await launcher.launch(
      { serverName: 'echo', command: process.execPath, args: [fixtureProgram('chaos-server.ts'), '--process-tools'], env: null, envVars: [], cwd: dir },
      { logger: nullLogger },
    );
    const client = new Client({ name: 'netns-test', version: '1.0.0' });
    await client.connect(launched.transport);
    const payload = randomBytes(768 * 1024).toString('base64');
    const result = (await client.callTool({ name: 'echo', arguments: { text: payload } })) as { content: { text: string }[] };
    expect(result.content[0]!.text === payload).toBe(true);
    const who = JSON.parse(((await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] }).content[0]!.text) as { pid: number };
    // The megabyte went out and came back through our end of the pair.
    expect(counter('tx_bytes') - tx).toBeGreaterThan(payload.length);
    expect(counter('rx_bytes') - rx).toBeGreaterThan(payload.length);
    await client.close();
    await waitFor(() => !isAlive(who.pid), 'the server in the namespace to be stopped', 15_000);
  });
});
