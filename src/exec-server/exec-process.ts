// A process running on an exec-server, seen from the client: write/closeStdin/kill, output chunks
// delivered in sequence order, and one exit outcome (exited, connection lost, or output lost).
import { assertNever, SwitchboardError } from '../util/index.js';
import { ExecMethod, WRITE_CHUNK_BYTES, WRITE_WINDOW_BYTES, type ExitedParams, type OutputParams, type OutputStream } from './methods.js';

export interface OutputChunk {
  stream: OutputStream;
  data: Buffer;
}

export type ExecExit =
  | { type: 'exited'; code: number | null; signal: string | null }
  | { type: 'connection_lost'; reason: string }
  /** A sequence number was skipped or repeated: output cannot be trusted, the process was killed. */
  | { type: 'output_lost'; expectedSeq: number; receivedSeq: number };

export interface ExecProcess {
  readonly processId: string;
  /** The pid on the executor (also its process group id). */
  readonly pid: number;
  /** Write to stdin; large buffers are sent in several frames, in order. */
  write(data: Uint8Array | string, options?: { signal?: AbortSignal }): Promise<void>;
  closeStdin(options?: { signal?: AbortSignal }): Promise<void>;
  /** Terminate the process group (SIGTERM, then SIGKILL after 2 s); `exited` reports the outcome. */
  kill(options?: { signal?: AbortSignal }): Promise<void>;
  /** Settles once: never rejects. */
  readonly exited: Promise<ExecExit>;
}

/** What a handle needs from its client (kept narrow so the two files do not import each other). */
export interface ExecRequester {
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  forget(processId: string): void;
}

type HandleState = { type: 'starting' } | { type: 'running'; pid: number } | { type: 'ended'; exit: ExecExit };

export class ExecProcessHandle implements ExecProcess {
  private state: HandleState = { type: 'starting' };
  private expectedSeq = 0;
  private pidValue = -1;
  private sendQueue: Promise<void> = Promise.resolve();
  private unacked = 0;
  private readonly ackWaiters: (() => void)[] = [];
  private writeError: unknown = null;
  private resolveExit!: (exit: ExecExit) => void;
  readonly exited: Promise<ExecExit> = new Promise((resolve) => (this.resolveExit = resolve));

  constructor(
    readonly processId: string,
    private readonly client: ExecRequester,
    private readonly onOutput: ((chunk: OutputChunk) => void) | undefined,
  ) {}

  get pid(): number {
    return this.pidValue;
  }

  started(pid: number): void {
    this.pidValue = pid;
    if (this.state.type === 'starting') this.state = { type: 'running', pid };
  }

  /**
   * Chunks are pipelined up to WRITE_WINDOW_BYTES unacknowledged bytes (acks come once the executor
   * has handed the bytes to the process), so a large write costs a few round trips, not one per chunk.
   * Writes are queued so the chunks of concurrent writes never interleave on stdin.
   */
  write(data: Uint8Array | string, options: { signal?: AbortSignal } = {}): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    try {
      this.assertWritable();
    } catch (err) {
      return Promise.reject(err);
    }
    const acks: Promise<unknown>[] = [];
    const sending = this.sendQueue.then(async () => {
      for (let offset = 0; offset < bytes.length; offset += WRITE_CHUNK_BYTES) {
        const chunk = bytes.subarray(offset, offset + WRITE_CHUNK_BYTES);
        while (this.unacked > 0 && this.unacked + chunk.length > WRITE_WINDOW_BYTES) await new Promise<void>((r) => this.ackWaiters.push(r));
        this.assertWritable();
        this.unacked += chunk.length;
        const ack = this.client.request(ExecMethod.write, { processId: this.processId, data: chunk.toString('base64') }, options.signal);
        acks.push(ack);
        void ack.then(
          () => this.acked(chunk.length),
          (err: unknown) => {
            this.acked(chunk.length);
            this.broken(err);
          },
        );
      }
    });
    this.sendQueue = sending.catch(() => {});
    return sending.then(() => Promise.all(acks)).then(() => undefined);
  }

  private acked(size: number): void {
    this.unacked -= size;
    for (const wake of this.ackWaiters.splice(0)) wake();
  }

  /** A lost chunk leaves a hole in stdin: nothing written after it can be trusted, so end the process. */
  private broken(err: unknown): void {
    if (this.writeError !== null) return;
    this.writeError = err;
    this.client.request(ExecMethod.kill, { processId: this.processId }).catch(() => {});
  }

  async closeStdin(options: { signal?: AbortSignal } = {}): Promise<void> {
    this.assertRunning();
    // After the writes already queued, so closing never cuts a write short.
    await this.sendQueue;
    await this.client.request(ExecMethod.closeStdin, { processId: this.processId }, options.signal);
  }

  async kill(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.state.type === 'ended') return;
    await this.client.request(ExecMethod.kill, { processId: this.processId }, options.signal);
  }

  /** Deliver one output notification, checking its place in the sequence. */
  output(params: OutputParams): void {
    if (this.state.type === 'ended') return;
    if (!this.inSequence(params.seq)) return;
    this.onOutput?.({ stream: params.stream, data: Buffer.from(params.data, 'base64') });
  }

  exit(params: ExitedParams): void {
    if (this.state.type === 'ended') return;
    if (!this.inSequence(params.seq)) return;
    this.ended({ type: 'exited', code: params.code, signal: params.signal });
  }

  ended(exit: ExecExit): void {
    if (this.state.type === 'ended') return;
    this.state = { type: 'ended', exit };
    this.client.forget(this.processId);
    this.resolveExit(exit);
  }

  private inSequence(seq: number): boolean {
    if (seq === this.expectedSeq) {
      this.expectedSeq++;
      return true;
    }
    const expected = this.expectedSeq;
    this.ended({ type: 'output_lost', expectedSeq: expected, receivedSeq: seq });
    // Output we can no longer trust must not keep running unobserved.
    this.client.request(ExecMethod.kill, { processId: this.processId }).catch(() => {});
    return false;
  }

  private assertWritable(): void {
    this.assertRunning();
    if (this.writeError !== null) {
      throw new SwitchboardError('exec_stdin_broken', `stdin of process ${this.processId} is broken after a failed write; the process was stopped`, {
        cause: this.writeError,
      });
    }
  }

  private assertRunning(): void {
    if (this.state.type === 'ended') {
      throw new SwitchboardError('exec_process_ended', `process ${this.processId} has ended (${describeExit(this.state.exit)})`);
    }
  }
}

export function describeExit(exit: ExecExit): string {
  switch (exit.type) {
    case 'exited':
      return exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
    case 'connection_lost':
      return exit.reason;
    case 'output_lost':
      return `output lost: expected chunk ${exit.expectedSeq}, got ${exit.receivedSeq}`;
    default:
      return assertNever(exit, 'exec exit');
  }
}
