// The fault matrix relies on the runner failing on an unhandled rejection or uncaught exception
// (vitest does by default; vitest.config.ts keeps dangerouslyIgnoreUnhandledErrors false). This runs
// vitest with the project's settings on two passing tests that leave such errors behind, and checks
// that the run fails and names both.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the test runner and unhandled errors', () => {
  it('fails a run whose tests pass but leave an unhandled rejection and an uncaught exception', { timeout: 120_000 }, () => {
    const run = spawnSync(process.execPath, [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/reliability/fixtures/vitest.unhandled.config.ts'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 110_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toMatch(/Tests\s+2 passed/);
    expect(output).toContain('injected unhandled rejection');
    expect(output).toContain('injected uncaught exception');
    expect(output).toMatch(/Unhandled Rejection/);
    expect(output).toMatch(/Uncaught Exception/);
    expect(run.status).toBe(1);
  });
});
