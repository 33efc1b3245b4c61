// The servers the JSON-RPC fuzzer runs against, each a long-running process: the chaos fixture's
// healthy mode (an SDK v2 server, as a baseline), `switchboard mcp-server` and `switchboard serve`
// (the built CLI, each with its own temporary home) over stdio, and the two CLI forms again over
// Streamable HTTP (`--http`, one session, several POSTs in flight, HTTP-level probes mixed in).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStdioTarget, type FuzzTarget } from './fuzz-target.js';
import { startHttpTarget } from './http-target.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHAOS = fixtureProgram('chaos-server.ts');
const CLI = path.join(REPO, 'bin/switchboard.js');
/** POSTs in flight at once on the HTTP targets' one session. */
export const HTTP_CONCURRENCY = 4;

const upstream = (marker: string) => ['[mcp_servers.up]', `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(CHAOS)}, "--marker", "${marker}"]`];

export interface TargetEntry {
  name: string;
  /** HTTP targets are also sent HTTP-level probes with each batch. */
  transport: 'stdio' | 'http';
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
    transport: 'stdio',
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
    transport: 'stdio',
    // codex and codex-reply start agent turns: random calls name tools that do not exist.
    start: () => cliTarget('mcp-server stdio', ['mcp-server'], [], ['fz_no_such_tool']),
  },
  {
    name: 'switchboard serve (stdio, one upstream)',
    transport: 'stdio',
    start: (marker) =>
      cliTarget('serve stdio', ['serve'], upstream(marker), ['mcp__up__echo', 'mcp__up__add']),
  },
  {
    name: 'switchboard mcp-server --http',
    transport: 'http',
    start: () => startHttpTarget({ name: 'mcp-server http', command: CLI, args: ['mcp-server'], config: [], safeTools: ['fz_no_such_tool'], concurrency: HTTP_CONCURRENCY }),
  },
  {
    name: 'switchboard serve --http (one upstream)',
    transport: 'http',
    start: (marker) => startHttpTarget({ name: 'serve http', command: CLI, args: ['serve'], config: upstream(marker), safeTools: ['mcp__up__echo', 'mcp__up__add'], concurrency: HTTP_CONCURRENCY, slowRequest: { method: 'tools/call', params: { name: 'mcp__up__slow', arguments: { ms: 100, steps: 1 } } } }),
  },
];
