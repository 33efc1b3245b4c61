// The servers the JSON-RPC fuzzer runs against. Today a stand-in: the chaos fixture's healthy mode (an
// SDK v2 server over stdio). When they land, `switchboard mcp-server` and `switchboard serve` join
// this list: their stdio forms as StdioTargetSpecs (command `node bin/switchboard.js mcp-server`, with
// safe tools that start no turn), their --http forms through an HTTP driver implementing FuzzTarget.
import { fileURLToPath } from 'node:url';
import { startStdioTarget, type FuzzTarget } from './fuzz-target.js';

const CHAOS = fileURLToPath(new URL('../fixtures/chaos-server.ts', import.meta.url));

export interface TargetEntry {
  name: string;
  start(marker: string): Promise<FuzzTarget>;
}

export const FUZZ_TARGETS: readonly TargetEntry[] = [
  {
    name: 'chaos-server (healthy, stdio; stand-in for mcp-server and serve)',
    start: (marker) =>
      startStdioTarget({
        name: 'chaos-server stdio',
        command: process.execPath,
        args: [CHAOS, '--marker', marker],
        // `slow` waits as long as it is asked to; echo and add answer at once.
        safeTools: ['echo', 'add'],
      }),
  },
];
