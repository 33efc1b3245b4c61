// `npm run conformance:client`: the client scenarios of @modelcontextprotocol/conformance against
// conformance/client.ts (switchboard's McpClient used as a library), by requirement set: the 2025-11-25 set, then the 2026-07-28 set
// (each at its revision's wire, as `--requirements` runs it), then one by one every other client
// scenario the suite has. A scenario that fails in a set's parallel run is run once more on its own
// (`--scenario --spec-version <set>`): on a loaded machine the parallel run can time out a handshake;
// a pass alone is counted and marked as such. Prints `N passed, M failed` per set (a WARNING counts
// as failed; scenarios a set runs without scoring are marked) and checks the result against the expected-failures
// baseline, which may only shrink: a listed scenario that passes fails the run, and so does an
// unlisted failure. Baseline entries are `<scenario>@<set>` (`@other` for the last group).
// Runs under Node 24 with type stripping (erasable syntax, node: imports only).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const conformanceBin = path.join(root, 'node_modules', '.bin', 'conformance');
const baselineFile = path.join(root, 'conformance', 'client-expected-failures.yml');
const outDir = path.join(root, '.conformance', 'client');
// The Client ID Metadata Document URL the suite's CIMD scenario expects (runner configuration,
// the equivalent of mcp_oauth_client_metadata_url).
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const command = `${process.execPath} ${path.join(root, 'conformance', 'client.ts')} --client-metadata-url ${CLIENT_METADATA_URL}`;

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(conformanceBin, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The `client:` list of the baseline file (the conformance CLI's --expected-failures format). */
function readBaseline(): Set<string> {
  const names = new Set<string>();
  let inClient = false;
  for (const raw of readFileSync(baselineFile, 'utf8').split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (/^\S/.test(line)) inClient = /^client:/.test(line);
    const item = /^\s+-\s+(\S+)/.exec(line);
    if (inClient && item) names.add(item[1]!.replace(/^['"]|['"]$/g, ''));
  }
  return names;
}

/** The requirement sets run, in order; `other` is every client scenario in neither. */
const REVISIONS = ['2025-11-25', '2026-07-28'];

/** Scenario lines of `list` output (`  - name` or `  - name [versions]`), up to the not-scored part. */
function listedScenarios(output: string, { scoredOnly }: { scoredOnly: boolean }): string[] {
  const text = scoredOnly ? output.split(/\n\S[^\n]*scored/i)[0]! : output;
  return [...text.matchAll(/^\s+-\s+(\S+)(?:\s+\[(\w+)\])?/gm)].filter((m) => m[2] !== 'server').map((m) => m[1]!);
}

/** Per-scenario verdicts of a `client --requirements` run (`✓ name: 3 passed, 0 failed[, 1 warnings]`). */
function verdicts(output: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const m of output.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings?)?/gm)) {
    out.set(m[2]!, m[1] === '✓' && m[4] === '0' && (m[5] ?? '0') === '0');
  }
  return out;
}

mkdirSync(outDir, { recursive: true });
const expected = readBaseline();
const failed: string[] = [];
const ran: string[] = [];
const started = Date.now();
const inSets = new Set<string>();

const passedAlone: string[] = [];

function report(set: string, scenario: string, ok: boolean, detail: string, scored: boolean, alone = false): void {
  const key = `${scenario}@${set}`;
  ran.push(key);
  if (!ok) failed.push(key);
  if (alone) passedAlone.push(key);
  const note = [scored ? '' : 'not scored', alone ? 'failed in the parallel run, passed run alone' : '', !ok && expected.has(key) ? 'expected failure' : ''].filter(Boolean).join(', ');
  process.stdout.write(`${ok ? '✓' : '✗'} ${scenario}${note ? ` (${note})` : ''}\n`);
  if (!ok && !expected.has(key) && detail) process.stdout.write(`${detail}\n`);
}

for (const revision of REVISIONS) {
  const listing = (await run(['list', '--client', '--requirements', revision])).output.split(/^Client scenarios.*$/m)[1] ?? '';
  const scored = new Set(listedScenarios(listing, { scoredOnly: true }));
  const all = listedScenarios(listing, { scoredOnly: false });
  if (scored.size === 0) throw new Error(`no client scenarios required by ${revision}:\n${listing}`);
  all.forEach((s) => inSets.add(s));
  process.stdout.write(`\n== ${revision} (${scored.size} scored, ${all.length - scored.size} run without scoring)\n`);
  const result = await run(['client', '--command', command, '--requirements', revision, '-o', path.join(outDir, revision)]);
  const seen = verdicts(result.output);
  for (const scenario of all) {
    const lines = result.output.split('\n').filter((l) => l.includes(scenario) && /FAILURE|WARNING|error/.test(l));
    let alone = false;
    if (seen.get(scenario) !== true) {
      const again = await run(['client', '--command', command, '--scenario', scenario, '--spec-version', revision, '--force', '-o', path.join(outDir, revision, 'alone')]);
      alone = again.code === 0;
    }
    report(revision, scenario, seen.get(scenario) === true || alone, lines.slice(-6).map((l) => `    ${l}`).join('\n'), scored.has(scenario), alone);
  }
  const setFailed = all.filter((s) => failed.includes(`${s}@${revision}`));
  process.stdout.write(`${revision}: ${[...scored].filter((s) => !setFailed.includes(s)).length}/${scored.size} scored passed; not scored ${all.length - scored.size - setFailed.filter((s) => !scored.has(s)).length}/${all.length - scored.size} passed\n`);
}

const rest = listedScenarios((await run(['list', '--client'])).output, { scoredOnly: false }).filter((s) => !inSets.has(s));
process.stdout.write(`\n== other client scenarios (${rest.length}, one at a time)\n`);
for (const scenario of rest) {
  const result = await run(['client', '--command', command, '--scenario', scenario, '-o', path.join(outDir, 'other')]);
  const summary = result.output.split('\n').filter((l) => /FAILURE|WARNING|error|OVERALL/.test(l));
  report('other', scenario, result.code === 0, summary.slice(-12).map((l) => `    ${l}`).join('\n'), false);
}

const aloneNote = passedAlone.length > 0 ? `, ${passedAlone.length} of them only when run alone` : '';
process.stdout.write(`\n${ran.length - failed.length} passed${aloneNote}, ${failed.length} failed (${ran.length} scenario runs, ${((Date.now() - started) / 1000).toFixed(0)}s; details in ${path.relative(root, outDir)})\n`);

const unexpected = failed.filter((s) => !expected.has(s));
const stale = [...expected].filter((s) => ran.includes(s) && !failed.includes(s));
const unknown = [...expected].filter((s) => !ran.includes(s));
if (unexpected.length > 0) process.stdout.write(`new failures (not in ${path.relative(root, baselineFile)}): ${unexpected.join(', ')}\n`);
if (stale.length > 0) process.stdout.write(`now passing, remove from ${path.relative(root, baselineFile)}: ${stale.join(', ')}\n`);
if (unknown.length > 0) process.stdout.write(`baseline lists unknown scenarios: ${unknown.join(', ')}\n`);
process.exitCode = unexpected.length + stale.length + unknown.length > 0 ? 1 : 0;
