// Security: secrets in the parent environment (and secret values in config.toml) never reach a stdio
// server unless named, never travel to an exec-server unless named, never appear in the log file or
// the CLI's output, and never reach the model — checked end to end through the built CLI
// (`mcp call`, `mcp status`, `exec`) with real servers, a real exec-server and the fake model server.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENV_VARS } from '../../src/mcp-client/index.js';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { REPO, runCliProcess, type CliResult } from '../support/cli.js';
import { startExecServerProcess, type ExecServerProcess } from '../support/exec-processes.js';
import { killProcessesByMarker } from '../support/process-tree.js';
import { spawnUrlServer } from '../support/fixture-processes.js';
import { CHAOS, NODE } from './fault-cases.js';
import { tempDir, removeTree } from '../support/temp.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const WHOAMI = fixtureProgram('chaos-server.ts');
const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** Secrets in the parent environment; names look like secrets, so the shell's filter drops them too. */
const PARENT = {
  OPENAI_API_KEY: secret('sk-parent-openai'),
  GITHUB_TOKEN: secret('ghp-parent'),
  AWS_SECRET_ACCESS_KEY: secret('aws-parent'),
  DB_PASSWORD: secret('db-parent'),
  /** Named by a server's bearer_token_env_var. */
  BEARER_SECRET_TOKEN: secret('bearer'),
  /** Named by a server's env_http_headers. */
  HEADER_SECRET_KEY: secret('env-header'),
  /** Named by a stdio server's env_vars: it must reach that server, and nothing else. */
  NAMED_SECRET_TOKEN: secret('named'),
};
/** Secret values written in config.toml itself. */
const LITERAL = { envToken: secret('literal-env'), header: secret('literal-header') };
const ALL_SECRETS = [...Object.values(PARENT), ...Object.values(LITERAL)];
const MOCK_KEY = secret('sk-model-key');

let home: string;
let marker: string;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
});
afterEach(async () => {
  await Promise.allSettled(closers.splice(0).map((c) => c()));
  await killProcessesByMarker(marker);
  await removeTree(home);
});

async function setup(): Promise<void> {
  home = await tempDir('sb-secrets-');
  marker = `secrets-${randomUUID()}`;
}

const writeConfig = (lines: string[]) => writeFileSync(path.join(home, 'config.toml'), `${lines.join('\n')}\n`);

const cli = (args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  runCliProcess(args, { home, env: { ...process.env, ...PARENT, SWITCHBOARD_LOG_LEVEL: 'debug', ...extraEnv } });

function leaks(text: string, secrets: readonly string[] = ALL_SECRETS): string[] {
  return secrets.filter((s) => text.includes(s));
}

const logText = () => readFileSync(path.join(home, 'log', 'switchboard.log'), 'utf8');
const whoamiEnv = (r: CliResult) => (JSON.parse((JSON.parse(r.stdout) as { content: { text: string }[] }).content[0]!.text) as { env: Record<string, string> }).env;

/** A stdio server (echo, whoami: its environment) carrying the test's marker in its argv. */
const localServer = (name: string, extra: string[] = []) => [
  `[mcp_servers.${name}]`,
  `command = ${JSON.stringify(NODE)}`,
  `args = [${JSON.stringify(WHOAMI)}, "--process-tools", "--marker=${marker}"]`,
  ...extra,
];

describe('security: secrets', { timeout: 120_000 }, () => {
  it('a local stdio server gets the default variables and what its config names, nothing else from the parent', async () => {
    await setup();
    writeConfig(localServer('local', ['env_vars = ["NAMED_SECRET_TOKEN"]', `env = { LITERAL_TOKEN = "${LITERAL.envToken}" }`]));
    const r = await cli(['mcp', 'call', 'mcp__local__whoami']);
    expect(r.code, r.stderr).toBe(0);
    const env = whoamiEnv(r);
    expect(Object.keys(env).filter((k) => !DEFAULT_ENV_VARS.includes(k)).sort()).toEqual(['LITERAL_TOKEN', 'NAMED_SECRET_TOKEN', 'NODE_COMPILE_CACHE']);
    expect(env.NAMED_SECRET_TOKEN).toBe(PARENT.NAMED_SECRET_TOKEN); // proves the check can see a secret that does travel
    // Not from the parent: switchboard's own, the Node compile cache under the home (mcp_node_compile_cache).
    expect(env.NODE_COMPILE_CACHE).toBe(path.join(home, 'cache', 'node-compile'));
    const unnamed = Object.entries(PARENT).filter(([k]) => k !== 'NAMED_SECRET_TOKEN').map(([, v]) => v);
    expect(leaks(JSON.stringify(env), unnamed)).toEqual([]);
  });

  it('a server on an exec-server gets only named variables: source "local" from here, "remote" from the executor', async () => {
    await setup();
    const token = randomBytes(24).toString('base64url');
    const tokenFile = path.join(home, 'exec-token');
    writeFileSync(tokenFile, token, { mode: 0o600 });
    const executorSecret = secret('executor-only');
    const exec: ExecServerProcess = await startExecServerProcess(['--token-file', tokenFile], {
      env: { ...process.env, EXECUTOR_SECRET_KEY: executorSecret, REMOTE_ALLOWED: 'from-the-executor' },
    });
    closers.push(() => exec.stop());
    writeConfig([
      '[environments.remote]',
      `url = "${exec.url}"`,
      'token_env_var = "EXEC_TOKEN"',
      ...localServer('far', [
        'environment = "remote"',
        `cwd = ${JSON.stringify(home)}`,
        'env_vars = [{ name = "NAMED_SECRET_TOKEN", source = "local" }, { name = "REMOTE_ALLOWED", source = "remote" }]',
      ]),
    ]);
    const r = await cli(['mcp', 'call', 'mcp__far__whoami'], { EXEC_TOKEN: token, EXECUTOR_SECRET_KEY: 'not-this-one' });
    expect(r.code, r.stderr).toBe(0);
    const env = whoamiEnv(r);
    expect(env.NAMED_SECRET_TOKEN).toBe(PARENT.NAMED_SECRET_TOKEN);
    expect(env.REMOTE_ALLOWED).toBe('from-the-executor');
    expect(env.EXECUTOR_SECRET_KEY).toBeUndefined();
    expect(env.EXEC_TOKEN).toBeUndefined();
    const unnamed = Object.entries(PARENT).filter(([k]) => k !== 'NAMED_SECRET_TOKEN').map(([, v]) => v);
    expect(leaks(JSON.stringify(env), [...unnamed, executorSecret, token])).toEqual([]);
    expect(leaks(logText() + r.stderr, [token, executorSecret])).toEqual([]);
  });

  it('never writes a secret to the log or the CLI output: env, env_vars, bearer token, headers, failures included', async () => {
    await setup();
    const ok = await spawnUrlServer(NODE, [CHAOS, '--marker', marker, '--http']);
    const denied = await spawnUrlServer(NODE, [CHAOS, '--marker', marker, '--http', '--mode', 'http-401', '--rate-401', '1']);
    writeConfig([
        ...localServer('local', ['env_vars = ["NAMED_SECRET_TOKEN"]', `env = { LITERAL_TOKEN = "${LITERAL.envToken}" }`]),
        `[mcp_servers.broken]`,
        `command = ${JSON.stringify(NODE)}`,
        `args = [${JSON.stringify(CHAOS)}, "--marker", "${marker}", "--mode", "exit-on-initialize"]`,
        'env_vars = ["NAMED_SECRET_TOKEN"]',
        `env = { LITERAL_TOKEN = "${LITERAL.envToken}" }`,
        '[mcp_servers.web]',
        `url = "${ok.url}"`,
        'bearer_token_env_var = "BEARER_SECRET_TOKEN"',
        `http_headers = { "X-Api-Key" = "${LITERAL.header}" }`,
        'env_http_headers = { "X-Env-Key" = "HEADER_SECRET_KEY" }',
        '[mcp_servers.denied]',
        `url = "${denied.url}"`,
        'bearer_token_env_var = "BEARER_SECRET_TOKEN"',
        `http_headers = { "X-Api-Key" = "${LITERAL.header}" }`,
    ]);
    const status = await cli(['mcp', 'status', '--json']);
    const call = await cli(['mcp', 'call', 'mcp__web__echo', '--args', '{"text":"hello"}']);
    const failing = await cli(['mcp', 'call', 'mcp__denied__echo', '--args', '{"text":"hello"}']);
    expect(call.code, call.stderr).toBe(0);
    expect(failing.code).not.toBe(0);
    const servers = (JSON.parse(status.stdout) as { servers: { name: string; state: string }[] }).servers;
    expect(Object.fromEntries(servers.map((s) => [s.name, s.state]))).toEqual({ local: 'ready', broken: 'failed', web: 'ready', denied: 'failed' });
    const log = logText();
    // The log is real and detailed (debug level), so a secret in it would be found.
    // (The first request a server gets is the 2026-07-28 server/discover probe: that is what was refused.)
    expect(log).toMatch(/MCP server 'denied' transport: Version negotiation failed: the server requires authorization \(HTTP 401\)/);
    expect(log).toContain('MCP server stderr');
    expect(log).toContain('"level":"debug"');
    for (const [what, text] of Object.entries({ log, 'status stdout': status.stdout, 'status stderr': status.stderr, 'call output': call.stdout + call.stderr, 'failed call output': failing.stdout + failing.stderr })) {
      expect(leaks(text), what).toEqual([]);
    }
  });

  it('sends the model no secret: requests carry only the model key, in the Authorization header', async () => {
    await setup();
    const model: FakeModelServer = await startFakeModelServer();
    closers.push(() => model.close());
    const web = await spawnUrlServer(NODE, [CHAOS, '--marker', marker, '--http']);
    writeConfig([
        'model = "mock-model"',
        'model_provider = "mock"',
        '[model_providers.mock]',
        'name = "Mock"',
        `base_url = "${model.url}"`,
        'env_key = "MOCK_KEY"',
        'request_max_retries = 0',
        ...localServer('local', ['env_vars = ["NAMED_SECRET_TOKEN"]', `env = { LITERAL_TOKEN = "${LITERAL.envToken}" }`]),
        '[mcp_servers.web]',
        `url = "${web.url}"`,
        'bearer_token_env_var = "BEARER_SECRET_TOKEN"',
        `http_headers = { "X-Api-Key" = "${LITERAL.header}" }`,
        'env_http_headers = { "X-Env-Key" = "HEADER_SECRET_KEY" }',
    ]);
    model.enqueue(
      responsesTurn({
        calls: [
          { id: 'c1', name: 'mcp__local__echo', args: { text: 'from the local server' } },
          { id: 'c2', name: 'mcp__web__echo', args: { text: 'from the web server' } },
          { id: 'c3', name: 'shell', args: { command: ['env'] } },
        ],
      }),
      responsesTurn({ text: 'done' }),
    );
    const r = await runCliProcess(['exec', '--json', '-s', 'danger-full-access', 'use the tools'], {
      home,
      env: { ...process.env, ...PARENT, MOCK_KEY, SWITCHBOARD_LOG_LEVEL: 'debug' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(model.requests).toHaveLength(2);
    const second = JSON.stringify(model.requests[1]!.body);
    // The tool results did come back (so the check below looks at real output, env included).
    expect(second).toContain('from the local server');
    expect(second).toContain('from the web server');
    expect(second).toMatch(/PATH=/);
    for (const [i, req] of model.requests.entries()) {
      const { authorization, ...headers } = req.headers;
      expect(authorization).toBe(`Bearer ${MOCK_KEY}`);
      expect(leaks(JSON.stringify(req.body) + JSON.stringify(headers), [...ALL_SECRETS, MOCK_KEY]), `request ${i}`).toEqual([]);
    }
    expect(leaks(r.stdout + r.stderr + logText(), [...ALL_SECRETS, MOCK_KEY])).toEqual([]);
  });
});
