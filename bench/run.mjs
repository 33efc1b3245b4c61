// The bench harness: finds bench/*.bench.ts, runs each module's exported `run()` (or default export)
// in turn, prints one table and writes bench/results/latest.json plus a timestamped copy.
// Modules are loaded through Vite's SSR loader (the machinery vitest uses), so they import src/ and
// test/ TypeScript exactly as tests do. `npm run bench -- <filter>` runs only files matching it.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'vite';

const REPO = path.resolve(import.meta.dirname, '..');
const BENCH_DIR = path.join(REPO, 'bench');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');

function checkRows(file, rows) {
  if (!Array.isArray(rows)) throw new Error(`${file}: run() must resolve to an array of rows`);
  for (const r of rows) {
    if (typeof r?.name !== 'string' || typeof r.value !== 'number' || typeof r.unit !== 'string') {
      throw new Error(`${file}: every row needs {name: string, value: number, unit: string}; got ${JSON.stringify(r)}`);
    }
  }
  return rows;
}

function fmt(n) {
  if (n === undefined || n === null) return '';
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  return abs >= 100 || Number.isInteger(n) ? String(Math.round(n)) : abs >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

function printTable(results) {
  const header = ['bench', 'name', 'value', 'unit', 'baseline', 'ratio', 'notes'];
  const lines = results.flatMap(({ bench, rows, error }) =>
    error ? [[bench, 'FAILED', '', '', '', '', error]] : rows.map((r) => [bench, r.name, fmt(r.value), r.unit, fmt(r.baseline), r.ratio === undefined ? '' : `${fmt(r.ratio)}x`, r.notes ?? '']),
  );
  const widths = header.map((h, i) => Math.min(70, Math.max(h.length, ...lines.map((l) => String(l[i]).length))));
  const row = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd();
  process.stdout.write(`${row(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${lines.map(row).join('\n')}\n`);
}

async function main() {
  const filter = process.argv[2];
  const files = (await readdir(BENCH_DIR)).filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter))).sort();
  if (files.length === 0) throw new Error(`no bench/*.bench.ts${filter ? ` matching ${filter}` : ''}`);
  const vite = await createServer({
    root: REPO,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const results = [];
  try {
    for (const file of files) {
      const bench = file.replace(/\.bench\.ts$/, '');
      process.stderr.write(`running ${bench}...\n`);
      const started = Date.now();
      try {
        const mod = await vite.ssrLoadModule(`/bench/${file}`);
        const run = mod.run ?? mod.default;
        if (typeof run !== 'function') throw new Error(`${file} exports no run() or default function`);
        const rows = checkRows(file, await run({ log: (line) => process.stderr.write(`  ${line}\n`) }));
        results.push({ bench, rows, durationMs: Date.now() - started });
      } catch (err) {
        results.push({ bench, rows: [], durationMs: Date.now() - started, error: err instanceof Error ? err.message : String(err) });
      }
    }
  } finally {
    await vite.close();
  }
  printTable(results);
  const report = {
    timestamp: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    results,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const text = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(path.join(RESULTS_DIR, 'latest.json'), text);
  await writeFile(path.join(RESULTS_DIR, `${report.timestamp.replace(/[:.]/g, '-')}.json`), text);
  process.stderr.write(`results written to ${path.relative(REPO, path.join(RESULTS_DIR, 'latest.json'))}\n`);
  return results.some((r) => r.error) ? 1 : 0;
}

// Exit explicitly: a bench that failed half-way may leave a child process or socket behind.
main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
