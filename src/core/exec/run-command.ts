// Runs one argv as its own process group: streams output chunks as they arrive, enforces a timeout
// and an abort signal by killing the whole group (SIGTERM, then SIGKILL), and reports how it ended.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { PROCESS_GROUP_TERM_GRACE_MS, signalGroup, terminateGroup } from '../../util/index.js';
import { HeadTailBuffer } from './head-tail-buffer.js';

export type OutputStream = 'stdout' | 'stderr';

export type ExecTermination =
  | { kind: 'exited'; code: number }
  | { kind: 'signaled'; signal: NodeJS.Signals }
  | { kind: 'timed_out'; timeoutMs: number }
  | { kind: 'aborted' }
  | { kind: 'spawn_failed'; error: NodeJS.ErrnoException };

export interface ExecResult {
  termination: ExecTermination;
  /** Shell-style exit code: the code, 128+signal, 124 on timeout, 130 on abort, 127/126 on spawn failure. */
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in arrival order. */
  aggregated: string;
  durationMs: number;
}

export interface RunCommandOptions {
  argv: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Kill the process group after this many milliseconds. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Each chunk as it arrives (for exec_command_output_delta). */
  onOutput?: (stream: OutputStream, chunk: Buffer) => void;
  /** Time between SIGTERM and SIGKILL (default PROCESS_GROUP_TERM_GRACE_MS, 2000 ms). */
  killGraceMs?: number;
  /** After the process exits, how long to wait for descendants to close its pipes (default 2000 ms). */
  drainMs?: number;
  /** Bytes kept per captured stream; beyond it the middle is dropped (default 8 MiB). */
  maxCapturedBytes?: number;
}

export const EXIT_CODE_TIMEOUT = 124;
export const EXIT_CODE_ABORTED = 130;

export function exitCodeOf(t: ExecTermination): number {
  switch (t.kind) {
    case 'exited':
      return t.code;
    case 'signaled':
      return 128 + (constants.signals[t.signal] ?? 0);
    case 'timed_out':
      return EXIT_CODE_TIMEOUT;
    case 'aborted':
      return EXIT_CODE_ABORTED;
    case 'spawn_failed':
      return t.error.code === 'ENOENT' ? 127 : 126;
  }
}

/** Never rejects: every way a command can end is an ExecTermination. */
export function runCommand(options: RunCommandOptions): Promise<ExecResult> {
  const { argv, cwd, signal } = options;
  const killGraceMs = options.killGraceMs ?? PROCESS_GROUP_TERM_GRACE_MS;
  const drainMs = options.drainMs ?? 2000;
  const max = options.maxCapturedBytes ?? 8 * 1024 * 1024;
  const started = performance.now();
  const stdout = new HeadTailBuffer(max);
  const stderr = new HeadTailBuffer(max);
  const aggregated = new HeadTailBuffer(max * 2);
  const timers: NodeJS.Timeout[] = [];

  return new Promise<ExecResult>((resolve) => {
    let ended: ExecTermination | undefined;
    let stopping: ExecTermination | undefined;
    const running: { pid?: number } = {};
    // Assigned once the child exists; `finish` may run before that (spawn failure, early abort).
    const listeners: { onAbort?: () => void } = {};
    let settled = false;
    const finish = (termination: ExecTermination) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      if (listeners.onAbort) signal?.removeEventListener('abort', listeners.onAbort);
      // A stopped command's descendants that outlived SIGTERM get no further grace.
      if (stopping && running.pid !== undefined) signalGroup(running.pid, 'SIGKILL');
      resolve({
        termination,
        exitCode: exitCodeOf(termination),
        stdout: stdout.text(),
        stderr: stderr.text(),
        aggregated: aggregated.text(),
        durationMs: performance.now() - started,
      });
    };

    if (argv.length === 0) {
      const error: NodeJS.ErrnoException = Object.assign(new Error('empty command'), { code: 'EINVAL' });
      finish({ kind: 'spawn_failed', error });
      return;
    }
    if (signal?.aborted) {
      finish({ kind: 'aborted' });
      return;
    }

    const proc: ChildProcessByStdio<null, Readable, Readable> = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own session and process group, so the whole tree can be signalled at once.
      detached: true,
    });

    running.pid = proc.pid;
    const stop = (why: ExecTermination) => {
      if (stopping || ended || proc.pid === undefined) return;
      stopping = why;
      void terminateGroup(proc.pid, killGraceMs);
    };
    const onAbort = () => stop({ kind: 'aborted' });
    listeners.onAbort = onAbort;
    signal?.addEventListener('abort', listeners.onAbort, { once: true });
    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      const timeoutMs = options.timeoutMs;
      timers.push(setTimeout(() => stop({ kind: 'timed_out', timeoutMs }), timeoutMs));
    }

    const collect = (stream: OutputStream, buffer: HeadTailBuffer) => (chunk: Buffer) => {
      buffer.push(chunk);
      aggregated.push(chunk);
      options.onOutput?.(stream, chunk);
    };
    proc.stdout.on('data', collect('stdout', stdout));
    proc.stderr.on('data', collect('stderr', stderr));

    proc.on('error', (error: NodeJS.ErrnoException) => {
      // Only spawn failures arrive here before 'exit'; later errors (kill on a dead pid) are moot.
      if (proc.pid === undefined) finish({ kind: 'spawn_failed', error });
    });
    proc.on('exit', (code, sig) => {
      ended =
        stopping ?? (sig ? { kind: 'signaled', signal: sig } : { kind: 'exited', code: code ?? 0 });
      // Descendants may still hold the pipes open; give them a moment, then end the group.
      timers.push(
        setTimeout(() => {
          signalGroup(proc.pid!, 'SIGKILL');
          proc.stdout.destroy();
          proc.stderr.destroy();
          finish(ended!);
        }, drainMs),
      );
    });
    proc.on('close', () => {
      if (ended) finish(ended);
    });
  });
}
