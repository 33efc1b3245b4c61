// `switchboard mcp status --watch` as a process (not a terminal: each change prints the table again):
// it follows startup, a crash and the restart (restarts, the last error), and exits 0 on SIGTERM; it
// follows config.toml too (a server added, a save that cannot be applied and where, the fix).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { revisionOf, saveAsEditor } from '../support/config-save.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';

describe('mcp status --watch', () => {
  let home: string;
  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-watch-');
  });
  afterAll(async () => {
    if (home) await removeTree(home);
  });

  it('redraws through startup, a crash and the restart, then exits 0 on SIGTERM', async () => {
    const pidFile = path.join(home, 'up.pid');
    await writeFile(
      path.join(home, 'config.toml'),
      `mcp_restart_initial_delay_ms = 100\n[mcp_servers.up]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_PID_FILE = ${JSON.stringify(pidFile)} }\n`,
    );
    const child = spawn(process.execPath, [BIN, 'mcp', 'status', '--watch'], { cwd: home, env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const row = (re: RegExp) => out.split('\n').some((l) => re.test(l));
      await waitFor(() => row(/^up\s+ready\s+2025-11-25\s+11\s+\d+ ms\s+0\s+-$/), `a ready row; output:\n${out}`);
      expect(out).toMatch(/^Name\s+State\s+Protocol\s+Tools\s+Startup\s+Restarts\s+Last error$/m);
      process.kill(Number(await readFile(pidFile, 'utf8')), 'SIGKILL');
      await waitFor(() => row(/^up\s+(failed|starting)\s.*MCP server `up` stopped after being ready/), `the crash; output:\n${out}`);
      await waitFor(() => row(/^up\s+ready\s+2025-11-25\s+11\s+\d+ ms\s+1\s+earlier: MCP server `up` stopped after being ready/), `the restart; output:\n${out}`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('shows the config revision, a save that cannot be applied with its line and column, and applies the fix', async () => {
    const file = path.join(home, 'config.toml');
    const server = (name: string) => `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\n`;
    const save = (text: string) => saveAsEditor(file, text);
    const first = server('one');
    await writeFile(file, first);
    const child = spawn(process.execPath, [BIN, 'mcp', 'status', '--watch'], { cwd: home, env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    /** The last table printed. */
    const last = () => out.slice(out.lastIndexOf('Name '));
    try {
      await waitFor(() => /^one\s+ready\s/m.test(last()) && last().includes(`config revision ${revisionOf(first)}`), `a ready row and the revision; output:\n${out}`);
      const second = `${first}${server('two')}`;
      await save(second);
      await waitFor(() => /^two\s+ready\s/m.test(last()) && last().includes(`config revision ${revisionOf(second)}`), `the added server; output:\n${out}`);
      await save(`${second}[mcp_servers.three\n`);
      await waitFor(() => last().includes('config not applied'), `the broken save; output:\n${out}`);
      expect(last()).toMatch(new RegExp(`^config not applied \\(revision ${revisionOf(second)} still in force\\): .*config\\.toml:7:1: invalid TOML`, 'm'));
      expect(last()).toMatch(/^one\s+ready\s/m);
      expect(last()).toMatch(/^two\s+ready\s/m);
      await save(first);
      await waitFor(() => last().includes(`config revision ${revisionOf(first)}`) && !/^two\s/m.test(last()), `the fix; output:\n${out}`);
      expect(last()).not.toContain('config not applied');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
