// A reader that goes away (`switchboard mcp tools | head`) ends the run quietly, exit status as it
// would have been: for the CLI's own text, written straight to the descriptor (src/cli/process-output.ts),
// and for process.stderr when a command makes it (mcp-server --verbose mirrors its log there).
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { tempHome } from '../support/temp.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** The built CLI with `gone`'s pipe closed on our side before it has started; its exit status and what the other stream said. */
async function withReaderGone(args: string[], gone: 'stdout' | 'stderr'): Promise<{ code: number | null; other: string }> {
  const { home, cleanup } = await tempHome();
  cleanups.push(cleanup);
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
  child[gone].destroy();
  let other = '';
  child[gone === 'stdout' ? 'stderr' : 'stdout'].setEncoding('utf8').on('data', (d: string) => (other += d));
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, other };
}

describe('a reader that goes away', () => {
  it("ends the CLI's own output quietly, with the command's status", async () => {
    const { code, other } = await withReaderGone(['--help'], 'stdout');
    expect(other).toBe('');
    expect(code).toBe(0);
  });

  it('ends a stream a command made quietly too: mcp-server --verbose logging to stderr', async () => {
    const { code, other } = await withReaderGone(['mcp-server', '--verbose'], 'stderr');
    expect(other).toBe('');
    expect(code).toBe(0);
  });
});
