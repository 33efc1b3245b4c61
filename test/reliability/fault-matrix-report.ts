// The fault matrix as data: one row per subject and chaos mode, saved as fault-matrix.json.
// docs/reliability.md shows it as a table rendered by scripts/docs-figures.ts (`npm run docs:figures`).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface MatrixRow {
  subject: string;
  id: string;
  transport: 'stdio' | 'http';
  /** The expected outcome in words (the row's verify() checks it). */
  outcome: string;
  /** `ready`, or `failed: <first line of the status line>`. */
  startup: string;
  /** Each call to the chaos server: `ok: <text>` or `error: <first line>`. */
  calls: string[];
  notes: string[];
  /** Status lines reporting a failure of the chaos server. */
  statusLines: number;
  /** Calls to the healthy server (before, during, after). */
  healthyCalls: number;
  healthyFailures: number;
  /** The slowest healthy call while the chaos server was exercised (ms). */
  healthySlowestMs: number;
  leftoverProcesses: number;
  seconds: number;
}

/** Writes the rows as JSON to `out`, sorted by subject and then by `caseOrder` (the FAULT_CASES ids). */
export async function saveMatrix(out: string, rows: readonly MatrixRow[], caseOrder: readonly string[]): Promise<void> {
  const sorted = [...rows].sort((a, b) => a.subject.localeCompare(b.subject) || caseOrder.indexOf(a.id) - caseOrder.indexOf(b.id));
  await mkdir(path.dirname(path.resolve(out)), { recursive: true });
  await writeFile(out, `${JSON.stringify(sorted, null, 2)}\n`);
}
