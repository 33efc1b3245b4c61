// The contract between bench/run.mjs and a bench module (bench/<name>.bench.ts): export
// `run(ctx)` (or a default function) resolving to rows; the harness prints and saves them.

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** The same measure for a reference run in the same process (e.g. without the layer under test). */
  baseline?: number;
  /** value / baseline, when a baseline makes sense. */
  ratio?: number;
  notes?: string;
}

export interface BenchContext {
  /** Progress lines (stderr); the table is printed by the harness. */
  log(line: string): void;
}

export type BenchModule = (ctx: BenchContext) => Promise<BenchRow[]>;

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function row(name: string, value: number, unit: string, extra: { baseline?: number; notes?: string } = {}): BenchRow {
  const r: BenchRow = { name, value, unit };
  if (extra.baseline !== undefined) {
    r.baseline = extra.baseline;
    r.ratio = extra.baseline === 0 ? undefined : value / extra.baseline;
  }
  if (extra.notes) r.notes = extra.notes;
  return r;
}
