// `npm run docs:figures`: renders the measured figures into docs/ — the bench table from
// bench/results/latest.json into docs/performance.md, the fault matrix from
// test/reliability/fault-matrix.json into docs/reliability.md — between marker comments, so the
// numbers in the docs are never copied by hand. `--check` writes nothing and exits 1 when a page is
// out of date. Runs under Node 24 with type stripping (erasable syntax, node: imports only).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MatrixRow } from '../test/reliability/fault-matrix-report.js';
import type { BenchRow } from '../bench/bench-types.js';

export const REPO = path.resolve(import.meta.dirname, '..');

interface BenchReport {
  timestamp: string;
  node: string;
  platform: string;
  cpus: number;
  results: { bench: string; rows: BenchRow[]; durationMs: number; error?: string }[];
}

/** One generated region: which page, which marker name, rendered from which JSON file. */
export interface Region {
  doc: string;
  name: string;
  source: string;
  render(json: unknown): string;
}

export const REGIONS: readonly Region[] = [
  { doc: 'docs/performance.md', name: 'bench', source: 'bench/results/latest.json', render: (j) => renderBench(j as BenchReport) },
  { doc: 'docs/reliability.md', name: 'fault-matrix', source: 'test/reliability/fault-matrix.json', render: (j) => renderFaultMatrix(j as MatrixRow[]) },
];

/** The same rounding as bench/run.mjs prints, so the page and the terminal agree. */
function fmt(n: number | undefined): string {
  if (n === undefined || n === null) return '';
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  return abs >= 100 || Number.isInteger(n) ? String(Math.round(n)) : abs >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderBench(report: BenchReport): string {
  const when = report.timestamp.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
  const lines = [
    `Run of ${when}: Node ${report.node}, ${report.platform}, ${report.cpus} CPUs (\`bench/results/latest.json\`).`,
    '',
    '| bench | measure | value | baseline | ratio | notes |',
    '|---|---|---|---|---|---|',
  ];
  for (const { bench, rows, error } of report.results) {
    if (error) {
      lines.push(`| ${bench} | FAILED |  |  |  | ${cell(error)} |`);
      continue;
    }
    for (const r of rows) {
      const baseline = r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`;
      const ratio = r.ratio === undefined ? '' : `${fmt(r.ratio)}x`;
      lines.push(`| ${bench} | ${cell(r.name)} | ${fmt(r.value)} ${r.unit} | ${baseline} | ${ratio} | ${cell(r.notes ?? '')} |`);
    }
  }
  return lines.join('\n');
}

export function renderFaultMatrix(rows: readonly MatrixRow[]): string {
  const count = (subject: string) => rows.filter((r) => r.subject === subject).length;
  const subjects = [...new Set(rows.map((r) => r.subject))].map((s) => `${s} ${count(s)}`).join(', ');
  const healthy = rows.reduce((n, r) => n + r.healthyCalls, 0);
  const failed = rows.reduce((n, r) => n + r.healthyFailures, 0);
  const left = rows.reduce((n, r) => n + r.leftoverProcesses, 0);
  const lines = [
    `${rows.length} rows (${subjects}); healthy server calls: ${healthy}, ${failed} failed; processes left: ${left} (\`test/reliability/fault-matrix.json\`).`,
    '',
    '| subject | transport | chaos mode | outcome | status lines | healthy server calls (failed) | processes left |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const mode = r.id.slice(r.id.indexOf('/') + 1);
    lines.push(`| ${r.subject} | ${r.transport} | ${cell(mode)} | ${cell(r.outcome)} | ${r.statusLines} | ${r.healthyCalls} (${r.healthyFailures}) | ${r.leftoverProcesses} |`);
  }
  return lines.join('\n');
}

const START = (name: string) => `<!-- figures:${name}:start -->`;
const END = (name: string) => `<!-- figures:${name}:end -->`;
const NOTE = (source: string) => `<!-- generated from ${source} by \`npm run docs:figures\`; do not edit by hand -->`;

/** `text` with the region `name` replaced by `body`; throws when the markers are missing. */
export function replaceRegion(text: string, name: string, source: string, body: string): string {
  const start = text.indexOf(START(name));
  const end = text.indexOf(END(name));
  if (start < 0 || end < start) throw new Error(`markers ${START(name)} ... ${END(name)} not found`);
  return `${text.slice(0, start)}${START(name)}\n${NOTE(source)}\n\n${body}\n\n${text.slice(end)}`;
}

/** Every page with its regions rendered from the JSON files as they are now: path -> expected text. */
export function renderDocs(repo = REPO): Map<string, string> {
  const pages = new Map<string, string>();
  for (const region of REGIONS) {
    const doc = path.join(repo, region.doc);
    const current = pages.get(doc) ?? readFileSync(doc, 'utf8');
    const json: unknown = JSON.parse(readFileSync(path.join(repo, region.source), 'utf8'));
    try {
      pages.set(doc, replaceRegion(current, region.name, region.source, region.render(json)));
    } catch (err) {
      throw new Error(`${region.doc}: ${(err as Error).message}`, { cause: err });
    }
  }
  return pages;
}

function main(args: string[]): number {
  const check = args.includes('--check');
  const stale: string[] = [];
  for (const [doc, text] of renderDocs()) {
    if (readFileSync(doc, 'utf8') === text) continue;
    stale.push(path.relative(REPO, doc));
    if (!check) writeFileSync(doc, text);
  }
  if (check && stale.length > 0) {
    process.stderr.write(`out of date: ${stale.join(', ')}; run npm run docs:figures\n`);
    return 1;
  }
  process.stdout.write(stale.length ? `${check ? 'stale' : 'updated'}: ${stale.join(', ')}\n` : 'docs figures up to date\n');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
