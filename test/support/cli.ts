// Runs the switchboard CLI in-process (main(argv, io)) or as a real child process, capturing output.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../src/cli/index.js';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(REPO, 'bin', 'switchboard.js');
export const FIXTURES = path.join(REPO, 'test', 'fixtures');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  home: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** In-process: fast, same code as the bin. */
export async function runCli(args: string[], opts: CliOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'switchboard', ...args], {
    stdout: { write: (t) => void (stdout += t), isTTY: false },
    stderr: { write: (t) => void (stderr += t), isTTY: false },
    env: { ...opts.env, SWITCHBOARD_HOME: opts.home },
    cwd: opts.cwd ?? opts.home,
  });
  return { code, stdout, stderr };
}

/** The built CLI (dist/) as a child process on this Node. */
export function runCliProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` builds before running vitest)');
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? opts.home,
      env: { PATH: process.env.PATH, ...opts.env, SWITCHBOARD_HOME: opts.home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
