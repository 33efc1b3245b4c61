// `serve --http` loads prom-client (and the OpenTelemetry API it requires) on the first /metrics
// scrape, not at start nor with the calls it serves (issue 37: memory at rest); the calls made before
// that scrape are counted all the same (ops-endpoints.test.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { spawnServe } from '../gateway/serve-process.js';
import { LOADED_MODULES_ENV, loadedFiles } from '../cli/loaded-modules.js';
import { REPO } from '../support/cli.js';
import { removeTree, tempDir } from '../support/temp.js';

const TOKEN = 'metrics-lazy-test-token-abcdefgh';
const auth = { Authorization: `Bearer ${TOKEN}` };
const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => removeTree(h)));
});

/** A gateway that serves one call (and a scrape when asked), then exits: the packages it loaded. */
async function packagesLoaded(scrape: boolean): Promise<{ packages: Set<string>; metrics: string }> {
  const home = await tempDir('sb-lazy-metrics-');
  homes.push(home);
  const work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(path.join(home, 'config.toml'), `[mcp_servers.up]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\n`);
  const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_MCP_TOKEN: TOKEN, ...LOADED_MODULES_ENV };
  const serve = await spawnServe(['--http', '127.0.0.1:0'], { env, cwd: work });
  let metrics = '';
  try {
    const client = new Client({ name: 'metrics-lazy-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: auth } }));
    const result = await client.callTool({ name: 'mcp__up__echo', arguments: { text: 'x' } });
    expect(result.isError).not.toBe(true);
    await client.close();
    if (scrape) metrics = await (await fetch(new URL('/metrics', serve.url), { headers: auth })).text();
  } finally {
    expect(await serve.stop()).toBe(0);
  }
  const modules = path.join(REPO, 'node_modules');
  const packages = new Set(
    loadedFiles(serve.stderr())
      .filter((f) => f.startsWith(modules + path.sep))
      .map((f) => path.relative(modules, f).split(path.sep))
      .map((parts) => (parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!)),
  );
  return { packages, metrics };
}

describe('serve --http and prom-client', () => {
  it('serves calls without loading prom-client or the OpenTelemetry API; the first scrape loads them', async () => {
    const [calls, scraped] = await Promise.all([packagesLoaded(false), packagesLoaded(true)]);
    expect([...calls.packages].filter((p) => p === 'prom-client' || p.startsWith('@opentelemetry/'))).toEqual([]);
    expect(scraped.metrics).toContain('switchboard_upstream_calls_total{server="up",tool="echo",outcome="ok"} 1');
    expect(scraped.packages).toContain('prom-client');
    expect(scraped.packages).toContain('@opentelemetry/api');
  });
});
