import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Unhandled rejections and uncaught exceptions fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
  },
});
