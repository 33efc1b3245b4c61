// The skip path, tried on a machine that has everything: a vitest run with components hidden by
// SWITCHBOARD_TEST_HIDE skips their tests, passes, and ends with the summary naming each component, its
// suites and the install command; with SWITCHBOARD_TEST_NO_SKIP=1 (what .ci/run sets) the same run fails.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli.js';
import { HIDE_VAR, INSTALL_COMMAND, NO_SKIP_VAR } from './system-components.js';

const BROWSER_SUITE = 'test/mcp-host/status-page.test.ts';

/** `vitest run <files>` with the project's config, its environment changed by `env` (undefined unsets). */
function vitest(files: string[], env: Record<string, string | undefined>): Promise<{ status: number | null; output: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child = spawn(process.execPath, [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', ...files], { cwd: REPO, env: childEnv });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, output }));
  });
}

/** The lines after vitest's own summary (its Duration line). */
const tail = (output: string) => output.slice(output.lastIndexOf('Duration')).split('\n').slice(1).filter((l) => l.trim() !== '');

describe('the skip summary', { timeout: 120_000 }, () => {
  it('a hidden component skips its suites; the run passes and ends naming it, its suites and the install command', async () => {
    const run = await vitest([BROWSER_SUITE], { [HIDE_VAR]: 'chromium,firefox', [NO_SKIP_VAR]: undefined });
    expect(run.output).toMatch(/Tests\s+\d+ skipped \(\d+\)/);
    expect(run.status, run.output).toBe(0);
    expect(tail(run.output)).toEqual([
      ` Skipped: these tests need system components this machine lacks. Install them all with: ${INSTALL_COMMAND}`,
      expect.stringMatching(/^ {2}chromium: Chromium, .*; /),
      expect.stringMatching(new RegExp(`^ {4}${BROWSER_SUITE} \\(\\d+ tests?\\)$`)),
      expect.stringMatching(/^ {2}firefox: Firefox ESR, .*; /),
      expect.stringMatching(new RegExp(`^ {4}${BROWSER_SUITE} \\(\\d+ tests?\\)$`)),
    ]);
  });

  it(`with ${NO_SKIP_VAR}=1 (CI) the same skip fails the run, and says so last`, async () => {
    const run = await vitest([BROWSER_SUITE], { [HIDE_VAR]: 'chromium,firefox', [NO_SKIP_VAR]: '1' });
    expect(run.status, run.output).toBe(1);
    const lines = tail(run.output);
    expect(lines[0]).toContain(INSTALL_COMMAND);
    expect(lines.some((l) => l.startsWith('  firefox: '))).toBe(true);
    expect(lines.at(-1)).toMatch(new RegExp(`^ ${NO_SKIP_VAR}=1 \\(set by \\.ci/run\\): \\d+ skipped tests? fails? this run\\.$`));
  });

  it('an unknown name to hide stops the run, listing the names it knows', async () => {
    const run = await vitest([BROWSER_SUITE], { [HIDE_VAR]: 'chromum' });
    expect(run.status).toBe(1);
    expect(run.output).toContain(`${HIDE_VAR} names chromum, which is not a system component; use some of: bubblewrap, chromium,`);
  });
});
