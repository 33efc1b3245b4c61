import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SkipSummaryReporter } from './test/support/skip-summary-reporter.js';
import { COMPONENTS, missingComponents } from './test/support/system-components.js';

// Three projects, one `vitest run` for all of them (what `npm test` and CI run):
// - unit: next to the code (src/**/*.test.ts), no build needed, answers in seconds (`npm run test:unit`);
// - integration: test/<module>/ mirroring src/, real processes and servers, many spawn dist/;
// - reliability: fault matrix, fuzzing, security and storms (test/reliability/).
//
// A test that needs a program beyond Node and npm carries the component's tag ({ tags: ['chromium'] });
// the tags of missing components skip, and the skip summary names them at the end of the run.

const missing = await missingComponents();

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on child processes, servers and timers, so more workers than cores keep the CPU
    // busy (vitest's default on 2 cores is one). Files share nothing that collides: ports are 0,
    // folders are temporary, and processes are found by their own markers.
    maxWorkers: Math.max(4, availableParallelism()),
    // A worker runs file after file with its modules loaded once (unit and integration), instead of
    // a fresh process per file that imports the SDK and src/ again; stubbed variables are undone.
    unstubEnvs: true,
    unstubGlobals: true,
    // Unhandled rejections and uncaught exceptions fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    tags: COMPONENTS.map((c) => ({ name: c.id, description: `needs ${c.what}`, skip: missing[c.id] !== undefined })),
    provide: { missingComponents: missing },
    reporters: ['default', new SkipSummaryReporter(missing)],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: ['test/reliability/**'], isolate: false } },
      // Isolated: the fault matrix checks that nothing at all is left below its process.
      { extends: true, test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'] } },
    ],
  },
});
