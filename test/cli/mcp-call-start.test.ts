// `switchboard mcp call` (the built CLI, as a process) starts only the server the tool belongs to: a
// server that takes 40 s to start holds up no call to another one, and an unknown name is answered
// from the startup snapshots without starting anything.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { MANAGER_FIXTURE } from '../mcp/manager-harness.js';

const q = JSON.stringify;
/** A quarter of the slow server's start: the old `mcp call` waited for it (30 s, its startup timeout here 60 s). */
const WELL_BEFORE_SLOW_MS = 10_000;

let home: string;
let cleanup: () => Promise<void>;
let startedLog: string;

const started = async (): Promise<string[]> =>
  (await readFile(startedLog, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[0]!);

async function timedCall(name: string): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now();
  const r = await runCliProcess(['mcp', 'call', name], { home });
  return { ...r, ms: performance.now() - t0 };
}

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  startedLog = path.join(home, 'started.log');
  const server = (name: string, env: string) =>
    [`[mcp_servers.${name}]`, `command = ${q(process.execPath)}`, `args = [${q(MANAGER_FIXTURE)}]`, `env = { MGR_NAME = "${name}", MGR_STARTED_FILE = ${q(startedLog)}, ${env} }`];
  await writeFile(
    path.join(home, 'config.toml'),
    [
      ...server('tiny', 'MGR_TOOL_COUNT = "3"'),
      '',
      ...server('slow', 'MGR_DELAY_MS = "40000"'),
      'startup_timeout_sec = 60',
      '',
      '[mcp_servers.ghost]',
      'command = "/nonexistent/ghost-server"',
      '',
    ].join('\n'),
  );
});
afterAll(async () => cleanup());

describe('mcp call with a server that takes 40 s to start', () => {
  it('calls another server without waiting for it, before and after that server\'s snapshot is cached', async () => {
    const first = await timedCall('mcp__tiny__tool_1');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ content: [{ type: 'text', text: 'tiny:tool_1:' }] });
    // The first run has no snapshot: the name says which server to start, and only that one started.
    expect(await started()).toEqual(['tiny']);

    const warm = await timedCall('mcp__tiny__tool_1');
    expect(warm.code).toBe(0);
    expect(await started()).toEqual(['tiny', 'tiny']);
    expect(first.ms).toBeLessThan(WELL_BEFORE_SLOW_MS);
    expect(warm.ms).toBeLessThan(WELL_BEFORE_SLOW_MS);
  });

  it('answers an unknown name from the snapshots, starting nothing', async () => {
    const before = await started();
    const r = await timedCall('mcp__nope__x');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown tool 'mcp__nope__x'");
    expect(await started()).toEqual(before);
    expect(r.ms).toBeLessThan(WELL_BEFORE_SLOW_MS);
  });

  it('says the server failed to start when the tool would be a failed server\'s, not "unknown tool"', async () => {
    const r = await timedCall('mcp__ghost__x');
    expect(r.code).toBe(1);
    // One line: what failed, why, and what to check.
    expect(r.stderr).toBe(
      "error: MCP client for `ghost` failed to start: MCP startup failed: program `/nonexistent/ghost-server` not found (spawn ENOENT); check the server's `command`: installed, and on PATH or an absolute path\n",
    );
    expect(await started()).not.toContain('slow');
  });
});
