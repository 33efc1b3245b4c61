// Test helpers for the exec-server tests: run the CLI's exec-server as a separate process, or the CLI
// to completion. Observing processes through /proc is process-tree.ts's.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(REPO, 'bin/switchboard.js');
export const FIXTURES = path.join(REPO, 'test/fixtures');
export const EVERYTHING = path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export interface ExecServerProcess {
  url: string;
  child: ChildProcess;
  pid: number;
  stderr(): string;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(): Promise<number | null>;
}

/** Start `switchboard exec-server` (from dist/) and wait for its `listening on` line. */
export function startExecServerProcess(args: string[], options: { env?: NodeJS.ProcessEnv; prefix?: string[] } = {}): Promise<ExecServerProcess> {
  if (!existsSync(path.join(REPO, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const prefix = options.prefix ?? [];
  const argv = [...prefix, process.execPath, CLI, 'exec-server', ...args];
  const child = spawn(argv[0]!, argv.slice(1), { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`exec-server did not start within 30 s; stderr: ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const first = out.split('\n')[0]!;
      if (out.includes('\n')) {
        clearTimeout(timer);
        const m = /^listening on (wss?:\/\/\S+)$/.exec(first);
        if (!m) return reject(new Error(`unexpected first line ${JSON.stringify(first)}`));
        resolve({
          url: m[1]!,
          child,
          pid: child.pid!,
          stderr: () => err,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exec-server exited with ${code} before listening; stderr: ${err}`));
    });
  });
}

/** Run the CLI to completion (for refusals); resolves with exit code and output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
