// The stdio framing policy as a launcher test sees it: the chaos server in noise-stdout mode answers a
// call through the launcher, and every noise line was skipped and logged at warn (as for a local server).
import { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { LaunchedServer } from '../../src/mcp-client/index.js';
import { createLogger, type Logger } from '../../src/util/index.js';
import { fixtureProgram } from './fixture-bundles.js';

/** Arguments after the Node program: the chaos server writing non-JSON lines around every message. */
export const NOISY_SERVER_ARGS = [fixtureProgram('chaos-server.ts'), '--mode', 'noise-stdout'];

const NOISE_WARNING = / WARN MCP server `[^`]*` wrote a stdout line that is not JSON; skipped: chaos-server: this line is not JSON-RPC \([1-3]\)/;

export async function expectNoiseSkipped(launch: (logger: Logger) => Promise<LaunchedServer>): Promise<void> {
  const logged: string[] = [];
  const launched = await launch(createLogger((l) => logged.push(l)));
  const client = new Client({ name: 'noise-test', version: '1.0.0' });
  await client.connect(launched.transport);
  try {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'through the noise' } });
    expect((result as { content: { text: string }[] }).content[0]!.text).toBe('through the noise');
    const warnings = logged.filter((l) => l.includes(' WARN '));
    // 3 lines at start and 3 before each message: initialize, tools/call.
    expect(warnings.length).toBeGreaterThanOrEqual(9);
    for (const w of warnings) expect(w).toMatch(NOISE_WARNING);
  } finally {
    await client.close();
  }
}
