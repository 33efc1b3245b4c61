// The servers the JSON-RPC fuzzer runs against, each a long-running process over stdio: the chaos
// fixture's healthy mode (an SDK v2 server, as a baseline), `switchboard mcp-server` and
// `switchboard serve` (the built CLI, each with its own temporary home). Their --http forms plug in
// through an HTTP driver implementing FuzzTarget.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStdioTarget, type FuzzTarget } from './fuzz-target.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHAOS = path.join(REPO, 'test/fixtures/chaos-server.ts');
const CLI = path.join(REPO, 'bin/switchboard.js');

export interface TargetEntry {
  name: string;
  start(marker: string): Promise<FuzzTarget>;
}

/** The CLI with a home of its own (config lines given), removed when the target closes. */
async function cliTarget(name: string, args: string[], config: string[], safeTools: string[]): Promise<FuzzTarget> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-fuzz-home-'));
  writeFileSync(path.join(home, 'config.toml'), `${config.join('\n')}\n`);
  try {
    const target = await startStdioTarget({
      name,
      command: process.execPath,
      args: [CLI, ...args],
      // No model key: should a frame ever start an agent turn, it fails at once without the network.
      env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home },
      safeTools,
    });
    return {
      name: target.name,
      safeTools: target.safeTools,
      exchange: (frames) => target.exchange(frames),
      close: async () => {
        await target.close();
        rmSync(home, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    throw err;
  }
}

export const FUZZ_TARGETS: readonly TargetEntry[] = [
  {
    name: 'chaos-server (SDK v2 server, stdio; baseline)',
    start: (marker) =>
      startStdioTarget({
        name: 'chaos-server stdio',
        command: process.execPath,
        args: [CHAOS, '--marker', marker],
        // `slow` waits as long as it is asked to; echo and add answer at once.
        safeTools: ['echo', 'add'],
      }),
  },
  {
    name: 'switchboard mcp-server (stdio)',
    // codex and codex-reply start agent turns: random calls name tools that do not exist.
    start: () => cliTarget('mcp-server stdio', ['mcp-server'], [], ['fz_no_such_tool']),
  },
  {
    name: 'switchboard serve (stdio, one upstream)',
    start: (marker) =>
      cliTarget('serve stdio', ['serve'], ['[mcp_servers.up]', `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(CHAOS)}, "--marker", "${marker}"]`], ['mcp__up__echo', 'mcp__up__add']),
  },
];
