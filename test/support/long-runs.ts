// The long reliability runs (the fault matrix, the fuzzers, the session storms) at two lengths:
// `npm test` runs a representative slice of each, so every run still exercises them, and
// SWITCHBOARD_TEST_FULL=1 runs them whole (`npm run test:reliability`, which .ci/run runs after `npm test`).
// A slice leaves whole cases out; it never lowers the count or the bound inside a case.

export const FULL_VAR = 'SWITCHBOARD_TEST_FULL';

/** True when this run takes the long runs whole. */
export const fullRun = process.env[FULL_VAR] === '1';

/** All of `cases` in a full run; otherwise those `inSlice` keeps. */
export function sliceOf<T>(cases: readonly T[], inSlice: (c: T) => boolean): T[] {
  return fullRun ? [...cases] : cases.filter(inSlice);
}

/** A suite title that says how much of a long run it holds. */
export function sliceTitle(title: string, ran: number, of: number): string {
  return ran === of ? title : `${title} (slice: ${ran} of ${of}; npm run test:reliability runs all)`;
}

/**
 * The settings the 1,000-session storms (`mcp-server --http`, `serve --http`) run with: the slice keeps
 * a low --max-sessions (the least recently used sessions closed to make room); the full run adds
 * default settings.
 */
export const SESSION_STORM_SETTINGS: [string, string[]][] = sliceOf(
  [
    ['default settings', []],
    ['--max-sessions 100 (least recently used sessions closed)', ['--max-sessions', '100']],
  ],
  ([, args]) => args.length > 0,
);
