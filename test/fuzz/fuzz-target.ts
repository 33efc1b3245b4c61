// A fuzz target: an MCP server reached over one transport, fed batches of frames. The stdio driver
// keeps one long-running process, sends each batch then a ping, and checks what comes back: every
// line on stdout is valid JSON-RPC, every well-formed request is answered exactly once, the ping is
// answered, the process is alive. The HTTP driver (http-target.ts) implements the same interface.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { HttpProbe } from './http-probes.js';
import { invalidReply, withReplyId, REPLY_ID_PREFIX, type Frame } from './jsonrpc-frames.js';

export interface BatchReport {
  frames: number;
  /** Answers received to well-formed requests (results and errors). */
  answered: number;
  errors: number;
  /** HTTP only: how many frames got each status. */
  statuses?: Record<number, number>;
  /** HTTP only: reused-id probes whose second request was refused (-32600) while the first ran. */
  reusedIdRefused?: number;
}

export interface FuzzTarget {
  readonly name: string;
  /** Tools a random tools/call may name. */
  readonly safeTools: readonly string[];
  /**
   * Sends the frames (and, over HTTP, the HTTP-level probes) and a ping; rejects with a description
   * of whatever went wrong. Transports without an HTTP layer ignore the probes.
   */
  exchange(frames: readonly Frame[], probes?: readonly HttpProbe[]): Promise<BatchReport>;
  close(): Promise<void>;
}

export interface StdioTargetSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  safeTools: readonly string[];
  /** How long a batch may take to be fully answered. */
  batchTimeoutMs?: number;
}

const INITIALIZE = { jsonrpc: '2.0', id: 'fz:init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };
const preview = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);

class StdioTarget implements FuzzTarget {
  readonly name: string;
  readonly safeTools: readonly string[];
  private readonly child: ChildProcessWithoutNullStreams;
  private partial = '';
  private stderrTail = '';
  private readonly answers = new Map<string, number>();
  private readonly problems: string[] = [];
  private wake: (() => void) | undefined;
  private nextId = 0;
  private errors = 0;

  constructor(private readonly spec: StdioTargetSpec) {
    this.name = spec.name;
    this.safeTools = spec.safeTools;
    this.child = spawn(spec.command, spec.args, { stdio: ['pipe', 'pipe', 'pipe'], env: spec.env ?? process.env });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderrTail = (this.stderrTail + chunk).slice(-4_000)));
    this.child.stdin.on('error', () => {}); // reported as "exited" by the next exchange
    this.child.once('exit', () => this.wake?.());
  }

  async start(): Promise<void> {
    this.write(JSON.stringify(INITIALIZE));
    await this.waitFor(['fz:init'], 30_000, []);
    this.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  async exchange(frames: readonly Frame[]): Promise<BatchReport> {
    this.problems.length = 0;
    const owed: string[] = [];
    const sent = new Map<string, Frame>();
    const before = this.errors;
    for (const frame of frames) {
      const id = `${REPLY_ID_PREFIX}${++this.nextId}`;
      if (frame.expectsReply) {
        owed.push(id);
        sent.set(id, frame);
      }
      this.write(withReplyId(frame, id));
    }
    const ping = `fz:ping:${this.nextId}`;
    this.write(JSON.stringify({ jsonrpc: '2.0', id: ping, method: 'ping' }));
    await this.waitFor([...owed, ping], this.spec.batchTimeoutMs ?? 20_000, frames);
    const answered = owed.length;
    for (const id of [...owed, ping]) this.answers.delete(id);
    return { frames: frames.length, answered, errors: this.errors - before };
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private write(line: string): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.stdin.write(`${line}\n`);
  }

  private receive(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      if (line.trim() === '') continue;
      const invalid = invalidReply(line);
      if (invalid !== undefined) {
        this.problems.push(`stdout carried something that is not JSON-RPC (${invalid}): ${preview(line)}`);
        continue;
      }
      const msg = JSON.parse(line) as { id?: unknown; error?: unknown };
      if (typeof msg.id === 'string' && (msg.id.startsWith(REPLY_ID_PREFIX) || msg.id.startsWith('fz:ping:') || msg.id === 'fz:init')) {
        const seen = (this.answers.get(msg.id) ?? 0) + 1;
        this.answers.set(msg.id, seen);
        if (seen > 1) this.problems.push(`answered ${msg.id} ${seen} times`);
      }
      if (msg.error !== undefined) this.errors++;
    }
    this.wake?.();
  }

  private async waitFor(ids: string[], timeoutMs: number, frames: readonly Frame[]): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.problems.length > 0) throw new Error(this.report(this.problems.join('\n'), frames));
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(this.report(`the server exited (code ${this.child.exitCode}, signal ${this.child.signalCode})`, frames));
      }
      const missing = ids.filter((id) => !this.answers.has(id));
      if (missing.length === 0) return;
      if (Date.now() > deadline) {
        throw new Error(this.report(`no answer within ${timeoutMs} ms to ${missing.length} request(s): ${missing.slice(0, 5).join(', ')}`, frames));
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private report(what: string, frames: readonly Frame[]): string {
    const sample = frames.slice(0, 20).map((f) => `  [${f.kind}] ${preview(f.text)}`).join('\n');
    return `${this.name}: ${what}\nbatch of ${frames.length} frames, first ones:\n${sample}\nserver stderr (tail):\n${this.stderrTail}`;
  }
}

/** `target` started; closed (whatever it had begun) when starting fails. */
export async function started<T extends { start(): Promise<void>; close(): Promise<void> }>(target: T): Promise<T> {
  try {
    await target.start();
  } catch (err) {
    await target.close();
    throw err;
  }
  return target;
}

/** Spawns the server and does the initialize handshake. */
export function startStdioTarget(spec: StdioTargetSpec): Promise<FuzzTarget> {
  return started(new StdioTarget(spec));
}
