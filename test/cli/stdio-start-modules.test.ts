// `mcp-server` and `serve` on stdio answer their first requests without loading what only later or
// other paths use (issue 33: every start of the CLI costs CPU): the `openai` package, loaded by the
// first model request, and the HTTP host (hono, the SDK's Node adapter), loaded by `--http`.
// The built CLI runs with a hook that lists every file it loads (loaded-modules.ts). A package the
// build bundles (scripts/bundle-options.ts) is a chunk of dist/chunks named after it, not node_modules.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { BIN, REPO } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { LOADED_MODULES_ENV, loadedFiles } from './loaded-modules.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const REQUESTS = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
];

/** The built CLI on stdio: the requests above, stdin closed once tools/list is answered; the tools listed and the packages loaded. */
async function toolsAndPackages(args: string[], home: string): Promise<{ tools: string[]; packages: Set<string> }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, ...LOADED_MODULES_ENV }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let tools: string[] | undefined;
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const line of stdout.split('\n').slice(0, -1)) {
      const message = JSON.parse(line) as { id?: number; result?: { tools: { name: string }[] } };
      if (message.id === 2 && tools === undefined) {
        tools = message.result?.tools.map((t) => t.name) ?? [];
        child.stdin.end();
      }
    }
  });
  const code = new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  child.stdin.write(REQUESTS.map((r) => `${JSON.stringify(r)}\n`).join(''));
  expect(await code).toBe(0);
  const modules = path.join(REPO, 'node_modules');
  const files = loadedFiles(stderr);
  const packages = new Set([
    ...files
      .filter((f) => f.startsWith(modules + path.sep))
      .map((f) => path.relative(modules, f).split(path.sep))
      .map((parts) => (parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!)),
    ...files.filter((f) => path.dirname(f) === CHUNKS).flatMap((f) => chunkName(path.basename(f)) ?? []),
  ]);
  return { tools: tools ?? [], packages };
}

const CHUNKS = path.join(REPO, 'dist', 'chunks');
/** `openai-bUzflSyw.js` → `openai`: the module a chunk of the build is named after (rolldown's `[name]-[hash]`). */
const chunkName = (file: string) => /^(.+)-[\w-]{8}\.js$/.exec(file)?.[1];

const LATER = ['openai', 'hono', '@hono/node-server'];

it('the build bundles openai as a chunk of its own (what the checks below look for besides node_modules)', () => {
  expect(readdirSync(CHUNKS).map(chunkName)).toContain('openai');
});

describe('a stdio start', () => {
  it('mcp-server lists its tools without loading openai or the HTTP host', async () => {
    const { home, cleanup } = await tempHome();
    cleanups.push(cleanup);
    const { tools, packages } = await toolsAndPackages(['mcp-server'], home);
    expect(tools).toEqual(['codex', 'codex-reply']);
    expect([...packages].filter((p) => LATER.includes(p))).toEqual([]);
  });

  it('serve lists its upstream tools without loading openai or the HTTP host', async () => {
    const { home, cleanup } = await tempHome();
    cleanups.push(cleanup);
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.up]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\n`);
    const { tools, packages } = await toolsAndPackages(['serve'], home);
    expect(tools).toContain('mcp__up__echo');
    expect([...packages].filter((p) => LATER.includes(p))).toEqual([]);
  });
});
