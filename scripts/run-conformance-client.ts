// `npm run conformance:client`: every client scenario of @modelcontextprotocol/conformance, one
// after another, against conformance/client.ts (switchboard's McpClient, used as a library); prints `N passed, M failed` (scenarios;
// a WARNING counts as failed) and checks the result against the expected-failures baseline, which
// may only shrink: a listed scenario that passes fails the run, and so does an unlisted failure.
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

const listed = await run(['list', '--client']);
const scenarios = [...listed.output.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]!);
if (scenarios.length === 0) throw new Error(`no client scenarios listed:\n${listed.output}`);
mkdirSync(outDir, { recursive: true });
const expected = readBaseline();

const failed: string[] = [];
const started = Date.now();
for (const scenario of scenarios) {
  const t0 = Date.now();
  const result = await run(['client', '--command', command, '--scenario', scenario, '-o', outDir]);
  const ok = result.code === 0;
  if (!ok) failed.push(scenario);
  const note = expected.has(scenario) ? ' (expected failure)' : '';
  process.stdout.write(`${ok ? '✓' : '✗'} ${scenario} ${((Date.now() - t0) / 1000).toFixed(1)}s${ok ? '' : note}\n`);
  if (!ok && !expected.has(scenario)) {
    const summary = result.output.split('\n').filter((l) => /FAILURE|WARNING|error|OVERALL/.test(l));
    process.stdout.write(`${summary.slice(-12).map((l) => `    ${l}`).join('\n')}\n`);
  }
}

const passed = scenarios.length - failed.length;
process.stdout.write(`\n${passed} passed, ${failed.length} failed (${scenarios.length} scenarios, ${((Date.now() - started) / 1000).toFixed(0)}s; details in ${path.relative(root, outDir)})\n`);

const unexpected = failed.filter((s) => !expected.has(s));
const stale = [...expected].filter((s) => scenarios.includes(s) && !failed.includes(s));
const unknown = [...expected].filter((s) => !scenarios.includes(s));
if (unexpected.length > 0) process.stdout.write(`new failures (not in ${path.relative(root, baselineFile)}): ${unexpected.join(', ')}\n`);
if (stale.length > 0) process.stdout.write(`now passing, remove from ${path.relative(root, baselineFile)}: ${stale.join(', ')}\n`);
if (unknown.length > 0) process.stdout.write(`baseline lists unknown scenarios: ${unknown.join(', ')}\n`);
process.exitCode = unexpected.length + stale.length + unknown.length > 0 ? 1 : 0;
