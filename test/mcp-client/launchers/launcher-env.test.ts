// The same stdio server sees the same environment variable NAMES whether it runs here, on an
// exec-server or over ssh: Codex's default list (when set where it runs), the `env_vars` names and the
// `env` literals, and nothing else from either machine.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentConfig } from '../../../src/config/index.js';
import { createLocalLauncher, DEFAULT_ENV_VARS, selectLauncher, type StdioLauncher, type StdioServerSpec } from '../../../src/mcp-client/index.js';
import { nullLogger } from '../../../src/util/index.js';
import { startExecServerProcess, type ExecServerProcess } from '../../support/exec-processes.js';
import { killQuietly } from '../../support/process-tree.js';
import { isMissing } from '../../support/system-tags.js';
import { startTestSshd, type TestSshd } from '../../support/test-sshd.js';
import { fixtureProgram } from '../../support/fixture-bundles.js';

// The chaos fixture, healthy, with `whoami` (its pid, cwd and environment).
const FIXTURE_ARGS = [fixtureProgram('chaos-server.ts'), '--process-tools'];
const TOKEN = randomBytes(24).toString('base64url');

/** Every default name set to something, wherever the server runs (sshd sets HOME, USER, LOGNAME, SHELL and PATH itself). */
const SET_BY_TEST = { __CF_USER_TEXT_ENCODING: '0x1F5:0x0:0x0', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'dumb', TMPDIR: os.tmpdir(), TZ: 'UTC' };
/** Variables that must never reach the server: not on the list and not named by the config. */
const UNNAMED = { NOT_NAMED: 'must-not-travel', SSH_AUTH_SOCK: '/nonexistent', EXEC_TOKEN: TOKEN };

const LOCAL_ENV: NodeJS.ProcessEnv = {
  HOME: os.homedir(),
  LOGNAME: os.userInfo().username,
  USER: os.userInfo().username,
  SHELL: '/bin/sh',
  PATH: process.env.PATH,
  ...SET_BY_TEST,
  ...UNNAMED,
  LOCAL_VALUE: 'from-this-machine',
};

const EXPECTED = [...DEFAULT_ENV_VARS, 'LITERAL', 'LOCAL_VALUE'].sort();

let dir: string;
let execServer: ExecServerProcess;
let sshd: TestSshd | { skip: string };
const leftovers: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-launch-env-'));
  const tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  // The executor's own environment holds every default name, plus what must stay out.
  execServer = await startExecServerProcess(['--token-file', tokenFile], { env: { ...LOCAL_ENV, SWITCHBOARD_HOME: dir, EXECUTOR_ONLY: 'x' } });
  sshd = isMissing('sshd') ? { skip: 'missing in this run' } : await startTestSshd(dir, { ...SET_BY_TEST, NOT_NAMED: 'must-not-travel' });
}, 60_000);

afterAll(async () => {
  killQuietly(leftovers);
  await execServer?.stop();
  if (sshd && !('skip' in sshd)) await sshd.stop();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (): StdioServerSpec => ({
  serverName: 'echo',
  command: process.execPath,
  args: FIXTURE_ARGS,
  env: { LITERAL: 'literal' },
  envVars: [{ name: 'LOCAL_VALUE', source: 'local' }],
  cwd: dir,
});

function launcherFor(where: 'local' | 'exec-server' | 'ssh'): StdioLauncher | string {
  const local = createLocalLauncher({ parentEnv: LOCAL_ENV });
  if (where === 'local') return local;
  const environments: Record<string, EnvironmentConfig> = { remote: { id: 'remote', type: 'exec-server', url: execServer.url, token_env_var: 'EXEC_TOKEN' } };
  if (where === 'ssh') {
    if ('skip' in sshd) return `sshd unavailable: ${sshd.skip}`;
    environments.remote = { id: 'remote', type: 'ssh', host: '127.0.0.1', user: sshd.user, port: sshd.port, identity_file: sshd.identityFile };
  }
  return selectLauncher({ name: 'echo', environment: 'remote' }, { local, environments, env: LOCAL_ENV, ssh: { extraOptions: 'skip' in sshd ? [] : sshd.sshOptions } });
}

describe('the environment of a stdio server', { timeout: 60_000 }, () => {
  const places = [['local', []], ['exec-server', []], ['ssh', ['sshd']]] as const;
  for (const [where, tags] of places) it(`launched ${where} holds the default names, env_vars and env, nothing else`, { tags: [...tags] }, async (ctx) => {
    const launcher = launcherFor(where);
    if (typeof launcher === 'string') return ctx.skip(launcher);
    expect(launcher.kind).toBe(where);
    const launched = await launcher.launch(spec(), { logger: nullLogger });
    const client = new Client({ name: 'env-test', version: '1.0.0' });
    await client.connect(launched.transport);
    try {
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] };
      const who = JSON.parse(result.content[0]!.text) as { pid: number; env: Record<string, string> };
      leftovers.push(who.pid);
      expect(Object.keys(who.env).sort()).toEqual(EXPECTED);
      expect(who.env.LOCAL_VALUE).toBe('from-this-machine');
    } finally {
      await client.close();
    }
  });
});
