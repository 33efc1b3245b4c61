// The package as npm publishes it: `npm pack` on a copy of the sources, installed from the tarball
// into an empty project. There `npx switchboard --help` works, and a program importing 'switchboard'
// type-checks against the installed declarations (no skipLibCheck) and runs, reaching a real MCP
// server; so does one in CommonJS (docs/library.md).
// The long runs (SWITCHBOARD_TEST_FULL=1, `npm run test:reliability`) pack as a publish does: the
// prepack script builds dist/ afresh in the copy, away from the dist/ other tests run at the same time.
// `npm test` has just built dist/ (its first step), so its slice packs a copy of that build instead of
// building it a second time (--ignore-scripts); everything after the pack is the same.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer } from '../fixtures/fake-model-server.js';
import { fullRun } from '../support/long-runs.js';
import { makeServerHome, requireBuild } from '../support/mcp-server-harness.js';
import { removeTree } from '../support/temp.js';

const root = path.resolve(import.meta.dirname, '..', '..');
/** The OpenTelemetry packages trace export loads (optional peer dependencies). */
const OTEL = ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources', '@opentelemetry/sdk-trace'];
const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectOk(result: Run, what: string): void {
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
}

const USER_PROGRAM = `import { buildConfig, createConnectionManager, McpConnectionManager, McpClientError, VERSION, type McpManagerEvent } from 'switchboard';
import { createAgent, type Thread } from 'switchboard/agent';
import { startHttpGateway } from 'switchboard/gateway';
import { SwitchboardOAuthProvider } from 'switchboard/oauth';

const { config } = buildConfig(
  { mcp_servers: { everything: { command: process.execPath, args: [process.env.EVERYTHING_SERVER!, 'stdio'] } } },
  { home: process.env.SWITCHBOARD_HOME!, file: 'main.ts' },
);
const events: McpManagerEvent[] = [];
const manager: McpConnectionManager = createConnectionManager(config, { onEvent: (e) => events.push(e) });
const catalog = await manager.listAllTools();
const result = await manager.callTool('mcp__everything__echo', { message: 'from the tarball' });
await manager.close();
const thread: Thread | undefined = createAgent({ config }).find('no-such-thread');
console.log(JSON.stringify({
  version: VERSION,
  tools: catalog.length,
  result: result.content,
  events: events.map((e) => e.type),
  thread: thread ?? null,
  exports: [typeof startHttpGateway, typeof SwitchboardOAuthProvider, new McpClientError('timeout', 'x').code],
}));
`;

/** The documented CommonJS form (docs/library.md): `import = require()`, awaits inside a function. */
const CJS_PROGRAM = `import switchboard = require('switchboard');

async function main(): Promise<void> {
  const { config } = switchboard.buildConfig({ mcp_servers: { everything: { command: process.execPath, args: [process.env.EVERYTHING_SERVER!, 'stdio'] } } }, { home: process.env.SWITCHBOARD_HOME! });
  const manager: switchboard.McpConnectionManager = switchboard.createConnectionManager(config);
  await manager.close();
}
void main();
`;

const CJS_SCRIPT = `const { buildConfig, createConnectionManager } = require('switchboard');

async function main() {
  const { config } = buildConfig({ mcp_servers: { everything: { command: process.execPath, args: [process.env.EVERYTHING_SERVER, 'stdio'] } } }, { home: process.env.SWITCHBOARD_HOME });
  const manager = createConnectionManager(config);
  await manager.listAllTools();
  const result = await manager.callTool('mcp__everything__echo', { message: 'from CommonJS' });
  await manager.close();
  console.log(JSON.stringify({ echoed: result.content[0].text }));
}
void main();
`;

describe(fullRun ? 'the npm package (packed as a publish does: prepack builds it afresh)' : 'the npm package (packed from the dist/ npm test built; npm run test:reliability packs as a publish does and type-checks a program against it)', () => {
  let temp: string;
  let app: string;
  let env: NodeJS.ProcessEnv;
  let files: string[];

  beforeAll(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'sb-pack-'));
    // The Node running the tests (24, for type stripping) comes first, for npm and the bin's shebang.
    env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, SWITCHBOARD_HOME: path.join(temp, 'home') };
    const repo = path.join(temp, 'repo');
    await mkdir(path.join(repo, 'scripts'), { recursive: true });
    // The build: tsc, then scripts/bundle.ts (with its options module); or the one npm test just made.
    const sources = ['tsconfig.json', 'tsconfig.build.json', 'src', 'scripts/bundle.ts', 'scripts/bundle-options.ts'];
    if (!fullRun) requireBuild();
    for (const entry of ['package.json', 'README.md', 'bin', ...(fullRun ? sources : ['dist'])]) {
      await cp(path.join(root, entry), path.join(repo, entry), { recursive: true });
    }
    await symlink(await realpath(path.join(root, 'node_modules')), path.join(repo, 'node_modules'), 'dir');
    // --json: the file list on stdout; the prepack build's output goes to stderr.
    const packArgs = ['pack', '--json', '--pack-destination', temp, ...(fullRun ? [] : ['--ignore-scripts'])];
    const packed = await run('npm', packArgs, { cwd: repo, env, timeoutMs: 240_000 });
    expectOk(packed, 'npm pack');
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    files = info!.files.map((f) => f.path);

    app = path.join(temp, 'app');
    await mkdir(app);
    await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // Dependencies come from the npm registry through the local npm cache, used without asking the
    // registry again where it holds them (--prefer-offline): about 10 s on a 2-core machine with a
    // warm cache; @types/node, what any TypeScript user installs, for the type check (full run only).
    const typesForTheCheck = fullRun ? ['@types/node@24'] : [];
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(temp, info!.filename), ...typesForTheCheck], { cwd: app, env, timeoutMs: 180_000 });
    expectOk(installed, 'npm install');
  }, 480_000);

  afterAll(async () => {
    if (temp) await removeTree(temp);
  });

  it('holds the built dist/ with declarations, the bin and the README, and nothing else', () => {
    expect(files).toContain('bin/switchboard.js');
    expect(files).toContain('dist/cli/main.js');
    // The licences of the packages the build bundles (scripts/bundle.ts), openai's among them.
    expect(files).toContain('dist/THIRD-PARTY-LICENSES.md');
    expect(files).toContain('README.md');
    expect(files).toContain('package.json');
    for (const entry of ['index', 'agent', 'gateway', 'oauth']) {
      expect(files).toContain(`dist/api/${entry}.js`);
      expect(files).toContain(`dist/api/${entry}.d.ts`);
    }
    const strays = files.filter((f) => !/^(bin\/|dist\/|README\.md$|LICENSE$|package\.json$)/.test(f) || f.endsWith('.map') || /\.test\./.test(f));
    expect(strays).toEqual([]);
  });

  it('runs the CLI: npx switchboard --help', async () => {
    const result = await run('npx', ['--no-install', 'switchboard', '--help'], { cwd: app, env });
    expectOk(result, 'npx switchboard --help');
    expect(result.stdout).toMatch(/^Usage: switchboard \[options\] \[command\]/);
    expect(result.stdout).toContain('serve [options]');
  });

  // tsc over the declarations and @types/node, without skipLibCheck as a user has it: about 15 CPU-s, so
  // it runs with the long runs (npm run test:reliability, which CI runs). In npm test,
  // test/examples/examples.test.ts type-checks the examples against the built declarations.
  if (fullRun) it('type-checks a program importing the package against the installed declarations, and one requiring it from CommonJS', async () => {
    await writeFile(path.join(app, 'main.ts'), USER_PROGRAM);
    // The app is "type": "module"; a .cts file is CommonJS whatever the package says.
    await writeFile(path.join(app, 'consumer.cts'), CJS_PROGRAM);
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--types', 'node'];
    const result = await run(process.execPath, [tsc, ...flags, 'main.ts', 'consumer.cts'], { cwd: app, env, timeoutMs: 180_000 });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 190_000);

  it('runs a program importing the package: the installed package reaches a real MCP server', async () => {
    await writeFile(path.join(app, 'main.ts'), USER_PROGRAM);
    const result = await run(process.execPath, ['main.ts'], { cwd: app, env: { ...env, EVERYTHING_SERVER: everything } });
    expectOk(result, 'node main.ts');
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(out.version).toBe((createRequire(import.meta.url)('../../package.json') as { version: string }).version);
    expect(out.tools).toBeGreaterThan(5);
    expect(out.result).toEqual([{ type: 'text', text: 'Echo: from the tarball' }]);
    expect(out.events).toContain('mcp_startup_complete');
    expect(out.thread).toBeNull();
    expect(out.exports).toEqual(['function', 'function', 'timeout']);
  });

  it('installs none of its optional peer dependencies, and a feature that needs one names it', async () => {
    // What only some deployments use stays out of a plain install (docs/library.md#what-it-installs).
    // (@opentelemetry/api, 2 MB, comes anyway: prom-client needs it.)
    // Nor openai: the build bundles it (one chunk; the model call below runs it from the tarball).
    for (const name of ['gpt-tokenizer', 'pg', 'openai', ...OTEL.slice(1)]) expect(existsSync(path.join(app, 'node_modules', name)), name).toBe(false);

    // The installed bin, run as npx runs it (npx itself is checked above; each npx costs about a CPU-second).
    const bin = path.join(app, 'node_modules', '.bin', 'switchboard');
    const traced = await run(bin, ['mcp', 'call', 'mcp__x__y'], { cwd: app, env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(traced.code).toBe(1);
    expect(traced.stderr).toContain(`error: Trace export (OTEL_* variables set) needs the packages ${OTEL.join(', ')}, which switchboard does not install by default: run \`npm i ${OTEL.join(' ')}\``);

    const stored = await run(bin, ['-c', 'store.postgres_url_env_var="SB_DB"', 'audit', 'tail'], { cwd: app, env: { ...env, SB_DB: 'postgres://127.0.0.1:9/x' } });
    expect(stored.code).toBe(1);
    expect(stored.stderr).toContain('error: The PostgreSQL store ([store] postgres_url_env_var = "SB_DB") needs the package pg, which switchboard does not install by default: run `npm i pg`');

    // Without gpt-tokenizer, tool_search = "auto" estimates (bytes/4) and knows no model's window.
    const mcp = pathToFileURL(path.join(app, 'node_modules', 'switchboard', 'dist', 'mcp', 'index.js')).href;
    const script = `const m = await import(${JSON.stringify(mcp)}); console.log(JSON.stringify({ count: await m.countTokens('{"type":"object"}', 'gpt-4o'), window: await m.knownContextWindow('gpt-4o') }));`;
    const counted = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env });
    expectOk(counted, 'countTokens without gpt-tokenizer');
    expect(JSON.parse(counted.stdout)).toEqual({ count: { tokens: 5, exact: false }, window: null });
  });

  it('calls a model with the openai client the build bundled: `switchboard exec` against a fake model server', async () => {
    const model = await startFakeModelServer();
    // The home the agent-server tests use (test/support/mcp-server-harness.ts), with the tarball's bin on PATH.
    const home = await makeServerHome(model);
    try {
      model.enqueue(responsesTurn({ text: 'answered from the tarball' }));
      const bin = path.join(app, 'node_modules', '.bin', 'switchboard');
      const ran = await run(bin, ['exec', '--json', 'hi'], { cwd: home.work, env: { ...home.env, PATH: env.PATH } });
      expectOk(ran, 'switchboard exec --json hi');
      const last = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as { msg: { type: string; last_agent_message?: string } };
      expect(last.msg).toMatchObject({ type: 'task_complete', last_agent_message: 'answered from the tarball' });
      expect(model.requests.at(-1)!.body.model).toBe('mock-model');
    } finally {
      await model.close();
      await home.cleanup();
    }
  });

  it('runs from CommonJS: require() loads it (Node >= 22.12 loads ES modules that way)', async () => {
    await writeFile(path.join(app, 'consumer.cjs'), CJS_SCRIPT);
    const ran = await run(process.execPath, ['consumer.cjs'], { cwd: app, env: { ...env, EVERYTHING_SERVER: everything } });
    expectOk(ran, 'node consumer.cjs');
    expect(JSON.parse(ran.stdout)).toEqual({ echoed: 'Echo: from CommonJS' });
  });
});
