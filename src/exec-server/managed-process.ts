// One process run by the exec-server: spawned in its own process group, output numbered and
// forwarded, stdin written with a bounded queue, and the group terminated when it ends.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { groupExists, PROCESS_GROUP_TERM_GRACE_MS, SwitchboardError, terminateGroup } from '../util/index.js';
import type { OutputStream } from './methods.js';

export interface ProcessSink {
  output(stream: OutputStream, seq: number, data: Buffer): void;
  exited(seq: number, code: number | null, signal: string | null): void;
}

export interface SpawnRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

type StdinState = { type: 'open' } | { type: 'closed' };
type RunState = { type: 'running' } | { type: 'exited'; code: number | null; signal: string | null };

/** Thrown by write/closeStdin; the connection turns `code` into a JSON-RPC error code. */
export class ProcessStateError extends SwitchboardError {}

export class ManagedProcess {
  readonly pid: number;
  private seq = 0;
  private stdin: StdinState = { type: 'open' };
  private run: RunState = { type: 'running' };
  private termination: Promise<void> | null = null;
  /** Resolves once the exit notification has been handed to the sink. */
  readonly done: Promise<void>;

  private constructor(
    readonly id: string,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly sink: ProcessSink,
    private readonly maxStdinBufferBytes: number,
  ) {
    this.pid = child.pid!;
    child.stdin.on('error', () => {
      // EPIPE after the process closed its stdin: reported to the writer through the write callback.
    });
    child.stdout.on('data', (chunk: Buffer) => this.sink.output('stdout', this.seq++, chunk));
    child.stderr.on('data', (chunk: Buffer) => this.sink.output('stderr', this.seq++, chunk));
    child.on('exit', () => {
      // The leader is gone; anything it left in its group would otherwise outlive it unsupervised.
      if (groupExists(this.pid)) void this.terminate();
    });
    this.done = new Promise((resolve) => {
      // 'close' comes after the last stdout/stderr chunk, so `exited` always has the highest seq.
      child.on('close', (code, signal) => {
        this.run = { type: 'exited', code, signal };
        this.stdin = { type: 'closed' };
        this.sink.exited(this.seq++, code, signal);
        resolve();
      });
    });
  }

  /** Spawn `argv` in a new session (so a new process group whose id is its pid). */
  static spawn(id: string, request: SpawnRequest, sink: ProcessSink, maxStdinBufferBytes: number): Promise<ManagedProcess> {
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(request.argv[0]!, request.argv.slice(1), {
          cwd: request.cwd,
          env: request.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
          windowsHide: true,
        });
      } catch (err) {
        reject(err);
        return;
      }
      const onError = (err: Error) => reject(err);
      child.once('error', onError);
      child.once('spawn', () => {
        child.off('error', onError);
        child.on('error', () => {
          // later errors (a failed kill) change nothing: 'close' still reports the exit
        });
        resolve(new ManagedProcess(id, child, sink, maxStdinBufferBytes));
      });
    });
  }

  get exited(): boolean {
    return this.run.type === 'exited';
  }

  write(data: Buffer): Promise<void> {
    if (this.run.type === 'exited') throw new ProcessStateError('process_exited', `process ${this.id} has exited`);
    if (this.stdin.type === 'closed') throw new ProcessStateError('process_exited', `stdin of process ${this.id} is closed`);
    const pending = this.child.stdin.writableLength;
    if (pending + data.length > this.maxStdinBufferBytes) {
      throw new ProcessStateError(
        'limit_exceeded',
        `stdin buffer of process ${this.id} is full (${pending} bytes waiting, limit ${this.maxStdinBufferBytes}); wait for earlier writes to complete`,
      );
    }
    return new Promise((resolve, reject) => {
      this.child.stdin.write(data, (err) => {
        if (err) reject(new ProcessStateError('process_exited', `cannot write to process ${this.id}: ${err.message}`, { cause: err }));
        else resolve();
      });
    });
  }

  closeStdin(): void {
    if (this.stdin.type === 'closed') return;
    this.stdin = { type: 'closed' };
    this.child.stdin.end();
  }

  /** Pause or resume reading output (backpressure from a slow connection). */
  setPaused(paused: boolean): void {
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (paused) stream.pause();
      else stream.resume();
    }
  }

  /** SIGTERM the group, SIGKILL after the grace period; resolves when the group is gone. */
  terminate(graceMs = PROCESS_GROUP_TERM_GRACE_MS): Promise<void> {
    this.termination ??= terminateGroup(this.pid, graceMs).finally(() => {
      this.termination = null;
    });
    return this.termination;
  }

  /** For a dropped connection: nobody reads output any more, so stop reading it and end the group. */
  abandon(): Promise<void> {
    this.child.stdout.removeAllListeners('data');
    this.child.stderr.removeAllListeners('data');
    this.child.stdout.resume();
    this.child.stderr.resume();
    this.closeStdin();
    return this.terminate();
  }
}
