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
    // Unhandled rejections and uncaught exceptions fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    tags: COMPONENTS.map((c) => ({ name: c.id, description: `needs ${c.what}`, skip: missing[c.id] !== undefined })),
    provide: { missingComponents: missing },
    reporters: ['default', new SkipSummaryReporter(missing)],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: ['test/reliability/**'] } },
      { extends: true, test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'] } },
    ],
  },
});
