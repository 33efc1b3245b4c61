// `switchboard mcp status --watch` as a process (not a terminal: each change prints the table again):
// it follows startup, a crash and the restart (restarts, the last error), and exits 0 on SIGTERM.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
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
});
