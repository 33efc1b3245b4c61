// The official MCP conformance suite (server mode) against `switchboard mcp-server --http`: the
// scenarios that apply to a tools-only server (initialize, ping, tools/list, DNS-rebinding
// protection, concurrent POST streams). The suite sends no token, so the server runs with
// --insecure-no-auth on loopback. npm test runs a slice (one CLI run each, about a CPU-second); the
// long runs run every scenario.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { makeServerHome, REPO, spawnHttpServer, type ServerHome } from '../support/mcp-server-harness.js';
import { sliceOf, sliceTitle } from '../support/long-runs.js';
import { tempDir, removeTree } from '../support/temp.js';

const run = promisify(execFile);
const CONFORMANCE = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const ALL = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'];
// The slice: a session's start and tools, and concurrent POST streams.
const SCENARIOS = sliceOf(ALL, (s) => ['server-initialize', 'tools-list', 'server-sse-multiple-streams'].includes(s));

let model: FakeModelServer;
let sh: ServerHome;
let server: Awaited<ReturnType<typeof spawnHttpServer>>;
let results: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  sh = await makeServerHome(model);
  server = await spawnHttpServer(sh, ['--insecure-no-auth']);
  results = await tempDir('sb-conformance-');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await model?.close();
  await sh?.cleanup();
  if (results) await removeTree(results);
});

describe(sliceTitle('official conformance suite, server scenarios', SCENARIOS.length, ALL.length), () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario} passes (the conformance CLI exits 0 with no failures)`, async () => {
      // process.execPath is the Node 24 that runs the tests (the CLI needs Node >= 22).
      const { stdout } = await run(process.execPath, [CONFORMANCE, 'server', '--url', server.url, '--scenario', scenario, '-o', results], { timeout: 90_000 });
      expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    }, 120_000);
  }
});
