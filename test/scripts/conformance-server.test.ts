// The conformance fixture against the real @modelcontextprotocol/conformance CLI (a few representative
// scenarios; `npm run conformance:server` runs all of them), its HTTP guards, its standalone entry, and
// the scoring and baseline rules of scripts/conformance-server.ts. npm test runs a slice of the
// representative scenarios (one CLI run each, about a CPU-second); the long runs run them all.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformanceServer, type StartedServer } from '../fixtures/conformance-server.js';
import { cliComplaint, judge, listServerScenarios, parseBaseline, readScenarioResults, runConformanceCli, type ScenarioResult } from '../../scripts/conformance-server.js';
import { spawnUrlServer, waitForExit } from '../support/fixture-processes.js';
import { sliceOf, sliceTitle } from '../support/long-runs.js';
import { removeTree } from '../support/temp.js';

const REPRESENTATIVE = [
  'server-initialize',
  'tools-call-with-progress', // server -> client notifications tied to a request
  'tools-call-elicitation', // server -> client request during a call
  'server-sse-polling', // priming event, retry:, resumption with Last-Event-ID
  'resources-templates-read',
  'prompts-get-with-args',
  'dns-rebinding-protection',
];
// The slice: a request, a server-to-client request during a call, and resumption of a stream.
const SCENARIOS = sliceOf(REPRESENTATIVE, (s) => ['server-initialize', 'tools-call-elicitation', 'server-sse-polling'].includes(s));

let server: StartedServer;
let outDir: string;

beforeAll(async () => {
  server = await startConformanceServer({ port: 0 });
  outDir = await mkdtemp(join(tmpdir(), 'switchboard-conformance-'));
});

afterAll(async () => {
  await server?.close();
  if (outDir !== undefined) await removeTree(outDir);
});

function status(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
  });
}

describe('conformance fixture', () => {
  it(sliceTitle('passes representative scenarios of the real conformance suite with no failure or warning', SCENARIOS.length, REPRESENTATIVE.length), { timeout: 120_000 }, async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    for (const scenario of SCENARIOS) {
      const { code, output } = await runConformanceCli(['server', '--url', server.url, '--scenario', scenario, '-o', outDir], { timeoutMs: 60_000 });
      expect(code, output).toBe(0);
    }
    const results = await readScenarioResults(outDir);
    expect([...results.keys()].sort()).toEqual([...SCENARIOS].sort());
    for (const result of results.values()) expect(result, result.problems.join('\n')).toMatchObject({ passed: true, problems: [] });
    // The SSE-polling scenario really exercised resumption, not just the stream opening.
    const pollingDir = (await readdir(outDir)).find((d) => d.startsWith('server-server-sse-polling-'));
    expect(pollingDir).toBeDefined();
    const polling: unknown = JSON.parse(await readFile(join(outDir, pollingDir ?? '', 'checks.json'), 'utf8'));
    expect(polling).toContainEqual(expect.objectContaining({ name: 'ServerDisconnectResume', status: 'SUCCESS' }));
  });

  it('refuses a foreign Host or Origin with 403 and accepts localhost ones', async () => {
    const port = new URL(server.url).port;
    expect(await status(server.url, { host: 'evil.example.com' })).toBe(403);
    expect(await status(server.url, { host: `localhost:${port}`, origin: 'http://evil.example.com' })).toBe(403);
    expect(await status(server.url, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
  });

  it('runs standalone: prints its URL, serves, and exits on SIGTERM', async () => {
    const entry = fileURLToPath(new URL('../fixtures/conformance-server.ts', import.meta.url));
    const { child, url } = await spawnUrlServer(process.execPath, [entry, '--port', '0']);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(await status(url, {})).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect(await waitForExit(child)).toEqual({ code: 0, signal: null });
    }
  });
});

describe('conformance scoring and baseline', () => {
  const result = (scenario: string, passed: boolean): [string, ScenarioResult] => [scenario, { scenario, passed, problems: passed ? [] : ['FAILURE x'] }];

  it('the installed CLI has the 32 server scenarios, and the baseline names only known ones', async () => {
    const scenarios = await listServerScenarios();
    expect(scenarios).toHaveLength(32);
    expect(scenarios).toEqual(expect.arrayContaining(REPRESENTATIVE));
    const baseline = parseBaseline(await readFile(fileURLToPath(new URL('../../conformance/server-expected-failures.yml', import.meta.url)), 'utf8'));
    for (const entry of baseline) expect(scenarios).toContain(entry);
  });

  it('parses the baseline format and rejects anything else', () => {
    expect(parseBaseline('# comment\nserver: []\n')).toEqual([]);
    expect(parseBaseline('server:\n  - ping\n  - "tools-list"  # why\nclient:\n  - initialize\n')).toEqual(['ping', 'tools-list']);
    expect(() => parseBaseline('server: ping\n')).toThrow(/baseline line 1/);
  });

  it('fails new failures, stale entries and unknown entries; a listed failure is accepted', () => {
    const scenarios = ['a', 'b', 'c', 'd'];
    const results = new Map([result('a', true), result('b', false), result('c', false)]); // d has no result
    expect(judge(scenarios, results, ['b', 'a', 'zz'])).toEqual({
      passed: ['a'],
      failed: ['b', 'c', 'd'],
      newFailures: ['c', 'd'],
      staleEntries: ['a'],
      unknownEntries: ['zz'],
    });
    expect(judge(scenarios, new Map(scenarios.map((s) => result(s, true))), [])).toMatchObject({ failed: [], newFailures: [], staleEntries: [] });
  });

  it("takes the CLI's exit as an error unless its one complaint is a stale entry for a scenario none of whose checks applied", () => {
    // The CLI's own words, colours included (dist/index.js of @modelcontextprotocol/conformance).
    const stale = (name: string) => `\x1b[31mStale baseline entries (now passing - remove from baseline):\x1b[0m\n  ✓ ${name}\n\n\x1b[31mBaseline is stale: update your expected-failures file to remove passing entries.\x1b[0m\n`;
    const vacuous: [string, ScenarioResult] = ['server-sse-polling', { scenario: 'server-sse-polling', passed: false, problems: ['no SUCCESS check recorded'] }];
    const results = new Map([vacuous, result('tools-list', true)]);
    expect(cliComplaint(0, '', results)).toBeUndefined();
    expect(cliComplaint(1, stale('server-sse-polling'), results)).toBeUndefined();
    expect(cliComplaint(1, stale('tools-list'), results)).toBe('conformance CLI exited with 1'); // really passing: this runner's judgement says so too
    expect(cliComplaint(1, `${stale('server-sse-polling')}Unexpected failures (not in baseline):\n  ✗ ping\n`, results)).toBe('conformance CLI exited with 1');
    expect(cliComplaint(1, 'Error: connect ECONNREFUSED', results)).toBe('conformance CLI exited with 1');
  });
});
