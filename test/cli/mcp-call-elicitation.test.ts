// `switchboard mcp call` when the server asks for input during the call, for a 2025 server
// (elicitation/create) and a 2026-07-28 one (an input-required result): without a terminal it is
// declined with a line on stderr; on a real pseudo-terminal (`script` from util-linux) the user answers.
import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const q = JSON.stringify;
const SERVER = fixtureProgram('mcp/stdio-v2-server.mjs');
const ERAS = [
  ['e2025', '2025-11-25', '{ FIXTURE_INPUT_REQUIRED = "1" }'],
  ['e2026', '2026-07-28', '{ FIXTURE_INPUT_REQUIRED = "1", FIXTURE_SERVE = "modern-only" }'],
] as const;
const HAVE_SCRIPT = spawnSync('script', ['--version']).status === 0;

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  const tables = ERAS.map(([name, , env]) => `[mcp_servers.${name}]\ncommand = ${q(process.execPath)}\nargs = [${q(SERVER)}]\nenv = ${env}\n`);
  await writeFile(path.join(home, 'config.toml'), tables.join('\n'));
});
afterAll(() => cleanup());

/** Runs the built CLI on a pseudo-terminal, typing each answer once its prompt has appeared. */
function onTerminal(command: string, script: [RegExp, string][]): Promise<{ code: number; screen: string }> {
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH, SWITCHBOARD_HOME: home, TERM: 'dumb' }, cwd: home });
  let screen = '';
  let step = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    screen += d;
    while (step < script.length && script[step]![0].test(screen)) child.stdin.write(`${script[step++]![1]}\r`);
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code: code ?? -1, screen });
    }),
  );
}

describe.each(ERAS)('mcp call against %s (%s)', (name) => {
  it('declines without a terminal and says how to answer', async () => {
    const r = await runCli(['mcp', 'call', `mcp__${name}__deploy`, '--args', '{"env":"prod"}'], { home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).content).toEqual([{ type: 'text', text: 'deploy cancelled' }]);
    expect(r.stderr).toContain(
      `MCP server '${name}' asked for input during the call: "Deploy to prod?". Declined: stdin and stderr are not a terminal. Run \`switchboard mcp call\` in a terminal to answer it.\n`,
    );
  });

  it.skipIf(!HAVE_SCRIPT)('asks on a terminal, and the answer decides', { timeout: 60_000 }, async () => {
    const command = (env: string) => `${process.execPath} ${BIN} mcp call mcp__${name}__deploy --args '{"env":"${env}"}'`;
    const yes = await onTerminal(command('prod'), [[/Answer it\? \[a\]ccept/, 'a'], [/confirm \(y\/n, required\): $/, 'y']]);
    expect(yes.screen).toContain(`MCP server '${name}' asks: Deploy to prod?`);
    expect(yes.screen).toContain('deployed to prod');
    expect(yes.code).toBe(0);
    const no = await onTerminal(command('staging'), [[/Answer it\? \[a\]ccept/, 'd']]);
    expect(no.screen).toContain('deploy cancelled');
  });
});
