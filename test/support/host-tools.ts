// The host tools some tests need beyond Node and npm (bubblewrap for the Linux sandbox), probed the
// way the product probes them. Where one is missing its tests are skipped, their names saying what to
// install — except on CI, which installs them (.ci/run): there a missing tool fails those tests.
// SWITCHBOARD_TEST_NO_BWRAP=1 hides bubblewrap, to try the skip path on a machine that has it.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { BwrapSandbox } from '../../src/core/index.js';

export const BWRAP = 'bubblewrap (apt-get install bubblewrap)';

/** `which`: whether `command` is an executable on PATH. */
function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Why bubblewrap cannot run here (not installed, no user namespaces, ...), or null when it can. */
export async function bwrapUnavailable(): Promise<string | null> {
  if (process.env.SWITCHBOARD_TEST_NO_BWRAP === '1') return 'hidden by SWITCHBOARD_TEST_NO_BWRAP=1';
  // Not spawned when absent: a failed spawn's `timeout` timer would hold the test process for 15 s.
  if (!onPath('bwrap')) return 'bwrap is not on PATH';
  return new BwrapSandbox().ensureAvailable().then(
    () => null,
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
}

/** Why this run skips the tests that need bubblewrap, or null when they run. */
export async function bwrapSkipReason(): Promise<string | null> {
  const reason = await bwrapUnavailable();
  if (reason === null) return null;
  const hidden = process.env.SWITCHBOARD_TEST_NO_BWRAP === '1';
  return hidden || process.env.CI !== 'true' ? reason : null;
}

const skipBwrap = await bwrapSkipReason();

/** True when the tests that need bubblewrap are skipped in this run (for `describe.skipIf` / `it.skipIf`). */
export const noBwrap = skipBwrap !== null;

/** A test or suite name that says, when skipped, what to install. */
export function needsBwrap(title: string): string {
  return noBwrap ? `${title} [skipped: needs ${BWRAP}]` : title;
}
