// The asynchronous log file as real processes use it: lines are on disk after a quick exit, an
// explicit process.exit and an uncaught error; a CLI command's log line survives its exit; and a
// process that logs nothing never loads pino; --verbose mirrors records to stderr.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const UTIL = path.join(REPO, 'dist', 'util', 'index.js');
const BIN = path.join(REPO, 'bin', 'switchboard.js');

let home: string;
let file: string;

beforeAll(() => {
  if (!existsSync(UTIL)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
});
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'sb-log-exit-'));
  file = path.join(home, 'log', 'switchboard.log');
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: home, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/** A Node process that creates the file logger, runs `body` (with `logger` in scope), and ends as `body` says. */
const script = (body: string) =>
  run(['--input-type=module', '-e', `const { createFileLogger } = await import(${JSON.stringify(UTIL)});\nconst logger = createFileLogger(${JSON.stringify(file)}, { level: 'debug' });\n${body}`]);

const messages = () =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('the log file at process exit', { timeout: 60_000 }, () => {
  it('has the last line of a process that logs and ends at once', async () => {
    expect((await script(`logger.info('first'); logger.warn('last');`)).code).toBe(0);
    expect(messages()).toEqual(['first', 'last']);
  });

  it('has every line when the process calls process.exit right after logging', async () => {
    const r = await script(`for (let i = 0; i < 5000; i++) logger.info('line ' + i); logger.error('last'); process.exit(3);`);
    expect(r.code, r.stderr).toBe(3);
    const got = messages();
    expect(got).toHaveLength(5001);
    expect(got.at(-1)).toBe('last');
    expect(new Set(got).size).toBe(5001);
  });

  it('has the line logged just before an uncaught error ends the process', async () => {
    const r = await script(`logger.error('fatal: about to throw', { where: 'test' }); throw new Error('boom');`);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('boom');
    expect(messages()).toEqual(['fatal: about to throw']);
  });

  it('never loads pino (nor creates the file) in a process that logs nothing at its level', async () => {
    const r = await run([
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
       const { createFileLogger } = await import(${JSON.stringify(UTIL)});
       createFileLogger(${JSON.stringify(file)}).debug('below info');
       const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/pino/'));
       if (loaded.length > 0) { console.error('pino loaded: ' + loaded.join(' ')); process.exit(1); }`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it('has the line a quick CLI command logged (a config warning) after the command exits', async () => {
    writeFileSync(path.join(home, 'config.toml'), 'bogus_top = 1\n[mcp_servers.local]\ncommand = "true"\n');
    const r = await run([BIN, 'mcp', 'list'], { SWITCHBOARD_HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('warning: unknown key bogus_top ignored\n');
    expect(readFileSync(file, 'utf8')).toMatch(/^\{"level":"warn","time":"[^"]+","msg":"unknown key bogus_top ignored"\}\n$/);
  });

  it('with --verbose, mirrors records to stderr as text lines and still writes them to the file', async () => {
    writeFileSync(path.join(home, 'config.toml'), '[mcp_servers.local]\ncommand = "true"\n');
    const r = await run([BIN, 'serve', '--verbose'], { SWITCHBOARD_HOME: home }); // stdin at EOF: serves, then stops
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^\S+Z INFO gateway serving on stdio \{"mode":"aggregate"\}$/m);
    expect(messages()).toContain('gateway serving on stdio');
  });
});
