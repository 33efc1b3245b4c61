// `npm run conformance:server`: runs every server scenario of @modelcontextprotocol/conformance against
// each target, scores scenarios (a WARNING fails a scenario, as the CLI's baseline mode does), and
// checks the result against the target's expected-failures baseline, which may only shrink.
//
//   node scripts/conformance-server.ts [--target <name>]...
//
// Results (one checks.json per scenario, plus the CLI's log) go to .conformance/server/<target>/.
// Exit code 0 when every target matches its baseline; 1 on a new failure, a stale baseline entry,
// a missing scenario result, or a target that is worse than the one it must match.
import { spawn, type ChildProcess } from 'node:child_process';
import type * as Targets from './conformance-targets.js';
import type { Target } from './conformance-targets.js';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** The conformance CLI's entry file, run with this Node (>= 22: the CLI needs fs.globSync). */
export const CONFORMANCE_CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');

/** The targets module (by URL, so that Node runs this script standalone: type stripping resolves no `.js` to a `.ts` file). */
const loadTargets = () => import(new URL('./conformance-targets.ts', import.meta.url).href) as Promise<typeof Targets>;

async function stopChild(child: ChildProcess): Promise<void> {
  return (await loadTargets()).stopChild(child);
}

/** Runs the conformance CLI; resolves with its exit code and combined output. */
export function runConformanceCli(args: string[], options: { timeoutMs?: number; running?: Set<() => Promise<void>> } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CONFORMANCE_CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = () => stopChild(child);
    options.running?.add(stop);
    child.once('exit', () => options.running?.delete(stop));
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code: code ?? (signal === null ? 1 : 128), output });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Scoring

export interface ScenarioResult {
  scenario: string;
  passed: boolean;
  /** `STATUS name: message` for every FAILURE and WARNING check. */
  problems: string[];
}

interface Check {
  name?: string;
  status?: string;
  errorMessage?: string;
}

/** The requirement sets of the suite a target can be measured against (`conformance list --requirements`). */
export type Requirements = '2025-11-25' | '2026-07-28';
/**
 * The 2025-11-25 revision, frozen at its release (the scenarios that revision requires of a server,
 * at its wire): the set of the 2025 targets.
 */
export const REQUIREMENTS: Requirements = '2025-11-25';
/**
 * Scenarios outside the frozen sets, run one by one: for 2025 targets, those the 0.1 line's suite ran
 * (so that nothing is checked less than before the conformance package moved to the 0.2 line); for
 * 2026-07-28 targets, header validation (a pending scenario of that revision).
 */
export const EXTRA_SCENARIOS: Record<Requirements, string[]> = {
  '2025-11-25': ['json-schema-2020-12', 'server-sse-polling'],
  '2026-07-28': ['http-header-validation'],
};

/** The server scenarios of the requirement set (`conformance list --server --requirements <set>`), plus its extra ones. */
export async function listServerScenarios(requirements: Requirements = REQUIREMENTS): Promise<string[]> {
  const { code, output } = await runConformanceCli(['list', '--server', '--requirements', requirements], { timeoutMs: 60_000 });
  if (code !== 0) throw new Error(`conformance list failed:\n${output}`);
  const required = output.split(/^Client scenarios/m)[0] ?? '';
  return [...[...required.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] as string), ...EXTRA_SCENARIOS[requirements]];
}

/** Reads `<dir>/server-<scenario>-<timestamp>/checks.json`; a scenario passes with no FAILURE and no WARNING. */
export async function readScenarioResults(dir: string): Promise<Map<string, ScenarioResult>> {
  const results = new Map<string, ScenarioResult>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
    if (!entry.isDirectory() || match === null) continue;
    const scenario = match[1] as string;
    // A scenario the CLI could not finish (it crashed against the server) leaves no checks: no result, a failure.
    const raw = await readFile(join(dir, entry.name, 'checks.json'), 'utf8').catch(() => undefined);
    if (raw === undefined) continue;
    const checks = JSON.parse(raw) as Check[];
    const problems = checks
      .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
      .map((c) => `${c.status} ${c.name ?? '?'}: ${c.errorMessage ?? ''}`.trim());
    const hasSuccess = checks.some((c) => c.status === 'SUCCESS');
    if (!hasSuccess && problems.length === 0) problems.push(NO_SUCCESS);
    results.set(scenario, { scenario, passed: problems.length === 0, problems });
  }
  return results;
}

/** A scenario whose checks all were informational: none applied to the server, so it did not pass. */
const NO_SUCCESS = 'no SUCCESS check recorded';

/**
 * Why the conformance CLI's own exit code counts against a target, or undefined when it does not.
 * The CLI also checks the baseline, but it counts a scenario with no failing check as passing, even
 * when none of its checks applied (`server-sse-polling` against a server that answers its call with
 * JSON: "priming event tests not applicable"), and then calls that scenario's baseline entry stale.
 * This runner does not count such a scenario as passed, so that complaint alone is not an error;
 * any other non-zero exit is (a crash, a failure the CLI saw).
 */
export function cliComplaint(code: number, output: string, results: Map<string, ScenarioResult>): string | undefined {
  if (code === 0) return undefined;
  const plain = stripVTControlCharacters(output);
  const stale: string[] = [];
  let inStale = false;
  for (const line of plain.split('\n')) {
    if (line.startsWith('Stale baseline entries')) inStale = true;
    else if (inStale && /^ {2}✓ \S+$/.test(line)) stale.push(line.slice(4));
    else inStale = false;
  }
  const onlyVacuous = stale.length > 0 && !plain.includes('Unexpected failures') && stale.every((s) => results.get(s)?.problems.join('; ') === NO_SUCCESS);
  return onlyVacuous ? undefined : `conformance CLI exited with ${code}`;
}

/**
 * Parses the subset of YAML the baseline uses: top-level `server:` / `client:` keys (optionally `[]`)
 * followed by `  - name` items. Returns the `server` entries.
 */
export function parseBaseline(textContent: string): string[] {
  const entries: string[] = [];
  let section: string | undefined;
  for (const [index, raw] of textContent.split('\n').entries()) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (line.trim() === '') continue;
    const key = /^(server|client):\s*(\[\s*\])?$/.exec(line);
    if (key !== null) section = key[1];
    else if (section !== undefined && /^\s+-\s+\S+$/.test(line)) {
      if (section === 'server') entries.push(line.replace(/^\s+-\s+/, '').replace(/^['"]|['"]$/g, ''));
    } else throw new Error(`baseline line ${index + 1}: expected "server:", "client:" or "  - <scenario>", got ${JSON.stringify(raw)}`);
  }
  return entries;
}

export interface Verdict {
  passed: string[];
  failed: string[];
  newFailures: string[];
  staleEntries: string[];
  unknownEntries: string[];
}

export function judge(scenarios: string[], results: Map<string, ScenarioResult>, baseline: string[]): Verdict {
  const failed = scenarios.filter((s) => results.get(s)?.passed !== true);
  const passed = scenarios.filter((s) => results.get(s)?.passed === true);
  return {
    passed,
    failed,
    newFailures: failed.filter((s) => !baseline.includes(s)),
    staleEntries: baseline.filter((s) => passed.includes(s)),
    unknownEntries: baseline.filter((s) => !scenarios.includes(s)),
  };
}


/** Stop functions of whatever is running now, so an interrupted run leaves no server behind. */
type Running = Set<() => Promise<void>>;

async function runTarget(target: Target, scenarios: string[], running: Running): Promise<{ verdict: Verdict; results: Map<string, ScenarioResult>; errors: string[] }> {
  const outDir = join(ROOT, '.conformance', 'server', target.name);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const baselinePath = join(ROOT, target.baseline);
  const baseline = parseBaseline(await readFile(baselinePath, 'utf8'));
  const started = await target.start();
  running.add(started.stop);
  const runs: { code: number; output: string }[] = [];
  try {
    const selection = target.extension ?? (target.only ? target.only.filter((sc) => !EXTRA_SCENARIOS[target.requirements].includes(sc)) : undefined);
    if (selection === undefined) {
      runs.push(await runConformanceCli(['server', '--url', started.url, '--requirements', target.requirements, '-o', outDir, '--expected-failures', baselinePath], { running }));
    }
    for (const scenario of [...(selection ?? []), ...scenarios.filter((sc) => EXTRA_SCENARIOS[target.requirements].includes(sc))]) {
      const wire = target.requirements === '2026-07-28' ? ['--spec-version', target.requirements, ...(target.extension ? ['--force'] : [])] : [];
      runs.push(await runConformanceCli(['server', '--url', started.url, '--scenario', scenario, ...wire, '-o', outDir, '--expected-failures', baselinePath], { running }));
    }
  } finally {
    running.delete(started.stop);
    await started.stop();
  }
  await writeFile(join(outDir, 'cli.log'), runs.map((r) => r.output).join(''));
  const results = await readScenarioResults(outDir);
  const verdict = judge(scenarios, results, baseline);
  const errors: string[] = [];
  for (const s of verdict.newFailures) errors.push(`new failure: ${s} (${results.get(s)?.problems.join('; ') ?? 'no result'})`);
  for (const s of verdict.staleEntries) errors.push(`stale baseline entry: ${s} now passes; remove it from ${target.baseline}`);
  for (const s of verdict.unknownEntries) errors.push(`unknown scenario in ${target.baseline}: ${s}`);
  // Each run of the CLI on its own: one that crashed is not hidden by another's harmless complaint.
  const complaint = errors.length === 0 ? runs.map((r) => cliComplaint(r.code, r.output, results)).find((c) => c !== undefined) : undefined;
  if (complaint !== undefined) errors.push(`${complaint}; see ${join(outDir, 'cli.log')}`);
  return { verdict, results, errors };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { target: { type: 'string', multiple: true } } });
  const { TARGETS } = await loadTargets();
  const wanted = new Set(values.target ?? TARGETS.map((t) => t.name));
  for (const t of TARGETS) if (wanted.has(t.name) && t.notWorseThan !== undefined) wanted.add(t.notWorseThan); // its reference runs too
  const selected = TARGETS.filter((t) => wanted.has(t.name));
  if (selected.length === 0) throw new Error(`unknown target; known: ${TARGETS.map((t) => t.name).join(', ')}`);
  const sets = new Map<Requirements, string[]>();
  for (const t of selected) if (!sets.has(t.requirements)) sets.set(t.requirements, await listServerScenarios(t.requirements));
  for (const [set, list] of sets) console.log(`conformance server suite, requirement set ${set}: ${list.length} scenarios per target`);
  console.log('results in .conformance/server/<target>/');
  const verdicts = new Map<string, Verdict>();
  const running: Running = new Set();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void Promise.allSettled([...running].map((stop) => stop())).finally(() => process.exit(130)));
  }
  let ok = true;
  for (const target of selected) {
    const all = sets.get(target.requirements)!;
    const scenarios = target.extension ?? (target.only ? all.filter((sc) => target.only!.includes(sc)) : all);
    const { verdict, results, errors } = await runTarget(target, scenarios, running);
    verdicts.set(target.name, verdict);
    console.log(`${target.name} (${target.description}): ${verdict.passed.length} passed, ${verdict.failed.length} failed`);
    for (const s of verdict.failed) console.log(`  ✗ ${s}: ${results.get(s)?.problems.join('; ') ?? 'no result'}`);
    const reference = target.notWorseThan === undefined ? undefined : verdicts.get(target.notWorseThan);
    for (const s of reference?.passed ?? []) {
      if (verdict.failed.includes(s)) errors.push(`${s} passes on ${target.notWorseThan} but fails here`);
    }
    for (const error of errors) console.log(`  error: ${error}`);
    ok &&= errors.length === 0;
  }
  return ok ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();
