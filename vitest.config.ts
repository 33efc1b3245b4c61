import { defineConfig } from 'vitest/config';

// Says once per run which host tools (bubblewrap) are missing, and so which tests are skipped.
const HOST_TOOLS = 'test/support/global-setup.ts';

// Three projects, one `vitest run` for all of them (what `npm test` and CI run):
// - unit: next to the code (src/**/*.test.ts), no build needed, answers in seconds (`npm run test:unit`);
// - integration: test/<module>/ mirroring src/, real processes and servers, many spawn dist/;
// - reliability: fault matrix, fuzzing, security and storms (test/reliability/).

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Unhandled rejections and uncaught exceptions fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: ['test/reliability/**'], globalSetup: [HOST_TOOLS] } },
      { extends: true, test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'], globalSetup: [HOST_TOOLS] } },
    ],
  },
});
