// The fault matrix: every subject (the connection manager, and the gateway `switchboard serve` for the
// modes where it adds behaviour: GATEWAY_ROWS) with one healthy server next to each chaos mode. The
// healthy server's tools work before, during and after the fault; the fault becomes one clear status
// line or call error; nothing is left running (no process carrying the row's marker after each row, no
// process at all below this one after the file). Rows run FAULT_MATRIX_CONCURRENCY (3) at a time.
// `npm test` runs each row of SLICE_ROWS on one subject (inSlice); SWITCHBOARD_TEST_FULL=1 (`npm run test:reliability`) runs them all.
// FAULT_MATRIX_OUT=<file.json> saves the matrix; `npm run fault-matrix` then renders it into docs/reliability.md.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnUrlServer } from '../support/fixture-processes.js';
import { steadyPause, waitFor } from '../support/wait.js';
import { leftoverDescendants, findProcessesByMarker, killProcessesByMarker } from '../support/process-tree.js';
import { casesFor, CHAOS, DEFAULT_TIMEOUTS, FAULT_CASES, NODE, SLICE_ROWS, type CaseRun, type FaultCase } from './fault-cases.js';
import { FULL_VAR, fullRun, sliceOf, sliceTitle } from '../support/long-runs.js';
import { SUBJECTS, type FaultSubject, type RunningSubject } from './subjects.js';
import { saveMatrix, type MatrixRow } from './fault-matrix-report.js';
import { AUTH_FAULT_CASES, runAuthCase } from './fault-cases-auth.js';

const rows: MatrixRow[] = [];
if (process.env.FAULT_MATRIX_OUT && !fullRun) throw new Error(`FAULT_MATRIX_OUT saves the whole matrix: set ${FULL_VAR}=1 too (npm run fault-matrix does)`);

afterAll(async () => {
  // Every row cleaned up after itself, so nothing at all may be left below this process.
  expect(await leftoverDescendants(5_000)).toEqual([]);
  const out = process.env.FAULT_MATRIX_OUT;
  if (!out || rows.length === 0) return;
  await saveMatrix(out, rows, [...FAULT_CASES, ...AUTH_FAULT_CASES].map((c) => c.id));
});

/** At most `n` rows at once: each row starts two or three Node processes. */
function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
const limit = limiter(Number(process.env.FAULT_MATRIX_CONCURRENCY ?? 3));

/** Calls the healthy server over and over until stopped; every call must succeed. */
function keepCallingHealthy(subject: RunningSubject) {
  let stopped = false;
  const results: { ok: boolean; detail: string; ms: number }[] = [];
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const started = performance.now();
      // Generous: through the gateway a call can wait behind a 50 MiB result on the same stdio pipe.
      const r = await subject.call('good', 'echo', { text: `during ${i}` }, { timeoutMs: 60_000 });
      const ms = performance.now() - started;
      results.push(r.ok && r.text === `during ${i}` ? { ok: true, detail: '', ms } : { ok: false, detail: JSON.stringify(r), ms });
      await steadyPause();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return results;
    },
  };
}

async function runCase(subjectKind: FaultSubject, c: FaultCase): Promise<MatrixRow> {
  const marker = `fault-matrix-${randomUUID()}`;
  const started = performance.now();
  let chaosUrl: string | undefined;
  let httpChaos: Awaited<ReturnType<typeof spawnUrlServer>> | undefined;
  if (c.transport === 'http') {
    httpChaos = await spawnUrlServer(NODE, [CHAOS, '--marker', marker, '--http', ...c.chaosArgs]);
    chaosUrl = httpChaos.url;
  }
  const chaosTable = c.transport === 'http' ? { url: chaosUrl } : { command: NODE, args: [CHAOS, '--marker', marker, ...c.chaosArgs] };
  const subject = await subjectKind.start(
    {
      good: { command: NODE, args: [CHAOS, '--marker', marker] },
      chaos: { ...chaosTable, ...DEFAULT_TIMEOUTS, ...c.config },
    },
    { restartDelayMs: c.restartDelayMs },
  );
  const run: CaseRun = { subject: subjectKind.name, startup: { state: 'cancelled' }, calls: [], notes: [], failureLines: [] };
  let healthy: { ok: boolean; detail: string; ms: number }[];
  try {
    // Before: the healthy server answers.
    expect(await subject.startup('good')).toEqual({ state: 'ready' });
    expect(await subject.call('good', 'echo', { text: 'before' })).toMatchObject({ ok: true, text: 'before' });
    // During: it keeps answering while the chaos server starts, fails and is called.
    const during = keepCallingHealthy(subject);
    try {
      run.startup = await subject.startup('chaos', { timeoutMs: 60_000 });
      await c.exercise(subject, run);
    } finally {
      healthy = await during.stop();
    }
    // After: still answering.
    expect(await subject.call('good', 'echo', { text: 'after' })).toMatchObject({ ok: true, text: 'after' });
    run.failureLines = subject.failureLines('chaos');
  } finally {
    // The HTTP chaos server goes even when closing the subject fails the row.
    try {
      await subject.close();
    } finally {
      httpChaos?.child.kill('SIGKILL');
    }
  }
  // A killed process needs a moment to be reaped; anything still there after 5 s was left behind.
  const leftMarked = await waitFor(async () => {
    const left = await findProcessesByMarker(marker);
    return left.length === 0 ? left : undefined;
  }, 'marked processes to go', 5_000).catch(async () => findProcessesByMarker(marker));
  if (leftMarked.length > 0) await killProcessesByMarker(marker);

  const row: MatrixRow = {
    subject: subjectKind.name,
    id: c.id,
    transport: c.transport,
    outcome: c.outcome,
    startup: run.startup.state === 'failed' ? `failed: ${run.startup.error.split('\n')[0]}` : run.startup.state,
    calls: run.calls.map((r) => (r.ok ? `${r.isError ? 'error result' : 'ok'}: ${r.text.slice(0, 80)}` : `error: ${r.error.split('\n')[0]}`)),
    notes: run.notes,
    statusLines: run.failureLines.length,
    healthyCalls: healthy.length + 2,
    healthyFailures: healthy.filter((h) => !h.ok).length,
    healthySlowestMs: Math.round(Math.max(0, ...healthy.map((h) => h.ms))),
    leftoverProcesses: leftMarked.length,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  if (process.env.FAULT_MATRIX_EXPLORE) {
    console.log(JSON.stringify({ ...row, failureLines: run.failureLines, rawCalls: run.calls }, null, 2));
  } else {
    c.verify(run);
  }
  expect(healthy.filter((h) => !h.ok).map((h) => h.detail)).toEqual([]);
  expect(healthy.length).toBeGreaterThan(0);
  expect(leftMarked).toEqual([]);
  return row;
}

/**
 * `npm test` runs each row of SLICE_ROWS on one subject: of the subjects that have the row, the one its
 * place in SLICE_ROWS picks in turn, so each subject still runs a share of the slice (the gateways run
 * the manager beneath them). The long runs take every row on every subject.
 */
const ROWS_OF = new Map(SUBJECTS.map((s) => [s.name, new Set(casesFor(s.name).map((c) => c.id))]));
function inSlice(subject: string) {
  return (c: { id: string }): boolean => {
    const at = SLICE_ROWS.indexOf(c.id);
    if (at < 0) return false;
    const having = SUBJECTS.filter((s) => ROWS_OF.get(s.name)!.has(c.id));
    return having[at % having.length]?.name === subject;
  };
}
const unknownSliceRows = SLICE_ROWS.filter((id) => ![...FAULT_CASES, ...AUTH_FAULT_CASES].some((c) => c.id === id));
if (unknownSliceRows.length > 0) throw new Error(`SLICE_ROWS names modes the matrix does not have: ${unknownSliceRows.join(', ')}`);

for (const subject of SUBJECTS) {
  const all = casesFor(subject.name);
  const cases = sliceOf(all, inSlice(subject.name));
  describe(sliceTitle(`fault matrix: ${subject.name}`, cases.length, all.length), { timeout: 180_000, concurrent: true }, () => {
    for (const c of cases) {
      it(c.id, async () => {
        rows.push(await limit(() => runCase(subject, c)));
      });
    }
  });
}

// The front door of a protected gateway when its authorization server fails (fault-cases-auth.ts).
const authCases = sliceOf(AUTH_FAULT_CASES, (c) => SLICE_ROWS.includes(c.id));
describe(sliceTitle('fault matrix: gateway (OAuth)', authCases.length, AUTH_FAULT_CASES.length), { timeout: 180_000, concurrent: true }, () => {
  for (const c of authCases) {
    it(c.id, async () => {
      const marker = `fault-matrix-${randomUUID()}`;
      const row = await limit(() => runAuthCase(c, marker));
      expect(await findProcessesByMarker(marker)).toEqual([]);
      rows.push(row);
    });
  }
});
