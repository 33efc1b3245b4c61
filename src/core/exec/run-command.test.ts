// The process runner against real processes: streaming, exit codes, timeout and abort killing the
// whole process group (grandchildren included), spawn failures and bounded capture.
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand, type OutputStream } from './run-command.js';
import { removeAll, tempDir } from '../../../test/support/temp.js';
import { isAlive } from '../../../test/support/process-tree.js';
import { waitFor } from '../../../test/support/wait.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

describe('runCommand', () => {
  it('streams stdout and stderr chunks in order and reports the exit code', async () => {
    const chunks: [OutputStream, string][] = [];
    const result = await runCommand({
      argv: ['bash', '-c', 'echo out1; echo err1 >&2; echo out2; exit 3'],
      cwd: '/',
      onOutput: (stream, chunk) => chunks.push([stream, chunk.toString()]),
    });
    expect(result.termination).toEqual({ kind: 'exited', code: 3 });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('out1\nout2\n');
    expect(result.stderr).toBe('err1\n');
    expect(chunks.filter(([s]) => s === 'stdout').map(([, c]) => c).join('')).toBe('out1\nout2\n');
    expect(result.aggregated.split('\n').sort()).toEqual(['', 'err1', 'out1', 'out2']);
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('runs in the given cwd with the given env', async () => {
    const cwd = await tempDir();
    dirs.push(cwd);
    const result = await runCommand({ argv: ['bash', '-c', 'pwd; echo "$SB_TEST_VAR"'], cwd, env: { ...process.env, SB_TEST_VAR: 'hello' } });
    expect(result.stdout).toBe(`${cwd}\nhello\n`);
  });

  it('a missing program is a spawn failure with exit code 127, not a throw', async () => {
    const result = await runCommand({ argv: ['/nonexistent/program'], cwd: '/' });
    expect(result.termination.kind).toBe('spawn_failed');
    expect(result.exitCode).toBe(127);
  });

  it('timeout kills the whole process group, grandchildren included', async () => {
    let grandchild = 0;
    const result = await runCommand({
      argv: ['bash', '-c', 'sleep 300 & echo $!; wait'],
      cwd: '/',
      timeoutMs: 1000,
      killGraceMs: 500,
      onOutput: (_s, chunk) => {
        grandchild ||= Number.parseInt(chunk.toString(), 10);
      },
    });
    expect(result.termination).toEqual({ kind: 'timed_out', timeoutMs: 1000 });
    expect(result.exitCode).toBe(124);
    expect(grandchild).toBeGreaterThan(0);
    await waitFor(() => !isAlive(grandchild), 'the grandchild to die');
  });

  it('abort kills the group, escalating to SIGKILL when SIGTERM is ignored', async () => {
    const controller = new AbortController();
    let grandchild = 0;
    const started = Date.now();
    const running = runCommand({
      // The grandchild ignores SIGTERM and keeps stdout open: only SIGKILL ends it.
      argv: ['bash', '-c', "bash -c 'trap \"\" TERM; echo $$; while :; do sleep 0.1; done' & wait"],
      cwd: '/',
      signal: controller.signal,
      killGraceMs: 300,
      onOutput: (_s, chunk) => {
        grandchild ||= Number.parseInt(chunk.toString(), 10);
        controller.abort();
      },
    });
    const result = await running;
    expect(result.termination).toEqual({ kind: 'aborted' });
    expect(result.exitCode).toBe(130);
    expect(grandchild).toBeGreaterThan(0);
    await waitFor(() => !isAlive(grandchild), 'the grandchild to die');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('an already aborted signal never starts the process', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runCommand({ argv: ['bash', '-c', 'echo should-not-run'], cwd: '/', signal: controller.signal });
    expect(result.termination).toEqual({ kind: 'aborted' });
    expect(result.stdout).toBe('');
  });

  it('does not wait forever for a background process holding the pipes', async () => {
    const result = await runCommand({ argv: ['bash', '-c', 'sleep 300 & echo done'], cwd: '/', drainMs: 300 });
    expect(result.termination).toEqual({ kind: 'exited', code: 0 });
    expect(result.stdout).toBe('done\n');
  });

  it('keeps the head and tail of huge output within the capture budget', async () => {
    const result = await runCommand({
      argv: ['bash', '-c', 'echo START; head -c 300000 /dev/zero | tr "\\0" x; echo; echo END'],
      cwd: '/',
      maxCapturedBytes: 1000,
    });
    expect(result.stdout.startsWith('START\n')).toBe(true);
    expect(result.stdout.endsWith('END\n')).toBe(true);
    expect(result.stdout).toMatch(/\[\.\.\. \d+ bytes not kept \.\.\.\]/);
    expect(result.stdout.length).toBeLessThan(1200);
  });
});
