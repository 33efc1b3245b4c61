// The fault matrix as data (one row per subject and chaos mode) and as the Markdown table the README
// shows.

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

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderMatrix(rows: readonly MatrixRow[]): string {
  const lines = [
    '| subject | transport | chaos mode | outcome | status lines | healthy server calls (failed) | processes left |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const mode = r.id.slice(r.id.indexOf('/') + 1);
    lines.push(`| ${r.subject} | ${r.transport} | ${cell(mode)} | ${cell(r.outcome)} | ${r.statusLines} | ${r.healthyCalls} (${r.healthyFailures}) | ${r.leftoverProcesses} |`);
  }
  return `${lines.join('\n')}\n`;
}
