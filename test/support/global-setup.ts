// Once per run, before the tests: one line for each host tool whose tests are skipped, so the reason
// shows even where the reporter lists no skipped test by name.
import { BWRAP, bwrapSkipReason } from './host-tools.js';
import { POSTGRES_PACKAGE, postgresSkipReason } from './postgres.js';

const PRINTED = Symbol.for('switchboard.test.hostToolsPrinted');

export default async function setup(): Promise<void> {
  // Each vitest project runs its global setup; the line is printed once per run.
  const state = globalThis as { [PRINTED]?: boolean };
  if (state[PRINTED]) return;
  state[PRINTED] = true;
  const bwrap = await bwrapSkipReason();
  if (bwrap !== null) console.log(`\n  Skipping the tests that need ${BWRAP}: ${bwrap}\n`);
  const pg = postgresSkipReason();
  if (pg !== null) console.log(`\n  Skipping the tests that need ${POSTGRES_PACKAGE}: ${pg}\n`);
}
