import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { ReliabilityFirst } from './test/support/sequencer.js';
import { SkipSummaryReporter } from './test/support/skip-summary-reporter.js';
import { COMPONENTS, missingComponents } from './test/support/system-components.js';

// The projects, one `vitest run` for all of them (what `npm test` and CI run):
// - unit: next to the code (src/**/*.test.ts), no build needed, answers in seconds (`npm run test:unit`);
// - integration: test/<module>/ mirroring src/, real processes and servers, many spawn dist/
//   (integration-own-process: those of its files that need a fresh process, OWN_PROCESS below);
// - reliability: fault matrix, fuzzing, security and storms (test/reliability/), their long runs
//   sliced unless SWITCHBOARD_TEST_FULL=1 (test/support/long-runs.ts, `npm run test:reliability`);
//   the fault matrix alone in a fresh process (reliability-own-process).
//
// A test that needs a program beyond Node and npm carries the component's tag ({ tags: ['chromium'] });
// the tags of missing components skip, and the skip summary names them at the end of the run.

const missing = await missingComponents();

// Integration files that need a fresh process, where the others share workers: the kernel keyring
// (keyutils) gives each thread its own session keyring, and a worker that ran other files hands the
// store's calls to more of its thread pool, so the keyring test would find no usable keyring.
const OWN_PROCESS = ['test/mcp-client/oauth/token-store.test.ts'];
const FAULT_MATRIX = 'test/reliability/fault-matrix.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on child processes, servers and timers, so one worker more than cores keeps the
    // CPU busy (vitest's default on 2 cores is one worker). Files share nothing that collides: ports
    // are 0, folders are temporary, and processes are found by their own markers.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    sequence: { sequencer: ReliabilityFirst },
    // Unit and integration workers run file after file with their modules loaded once (isolate: false
    // below), instead of a fresh process per file importing the SDK and src/ again; stubbed
    // variables are undone between files.
    unstubEnvs: true,
    unstubGlobals: true,
    // Unhandled rejections and uncaught exceptions fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    tags: COMPONENTS.map((c) => ({ name: c.id, description: `needs ${c.what}`, skip: missing[c.id] !== undefined })),
    provide: { missingComponents: missing },
    // The fixture servers tests spawn, bundled once before the workers start (cached on disk).
    globalSetup: ['test/support/fixture-bundles.ts'],
    reporters: ['default', new SkipSummaryReporter(missing)],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: ['test/reliability/**', ...OWN_PROCESS], isolate: false } },
      { extends: true, test: { name: 'integration-own-process', include: OWN_PROCESS } },
      { extends: true, test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'], exclude: [FAULT_MATRIX], isolate: false } },
      // A fresh process: the fault matrix checks that nothing at all is left below its process.
      { extends: true, test: { name: 'reliability-own-process', include: [FAULT_MATRIX] } },
    ],
  },
});
