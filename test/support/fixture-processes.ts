// Test helpers for fixture processes: spawning, raw newline-delimited JSON-RPC over stdio, and
// waiting for a child's exit. Finding processes by marker is process-tree.ts's.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { waitFor } from './wait.js';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function waitForExit(child: ChildProcess, timeoutMs = 10_000): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process ${child.pid} did not exit within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** The child has neither exited nor been killed by a signal. */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** A child speaking newline-delimited JSON on stdio, driven without an SDK (for checks the SDK hides). */
export class RawStdioPeer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything written to stdout so far, including a trailing partial line. */
  stdout = '';
  stderrBytes = 0;
  /** The last 64 KiB of stderr (when drained). */
  stderrTail = '';
  private readonly complete: string[] = [];
  private readonly parsed: Array<Record<string, unknown>> = [];
  private partial = '';

  constructor(command: string, args: string[], options: { drainStderr?: boolean; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.receive(chunk));
    if (options.drainStderr ?? true) {
      this.child.stderr.on('data', (chunk: Buffer) => {
        this.stderrBytes += chunk.length;
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-65_536);
      });
    }
    this.child.stdin.on('error', () => {}); // EPIPE once the child has exited is expected in exit modes
  }

  private receive(chunk: string): void {
    this.stdout += chunk;
    if (!chunk.includes('\n')) {
      this.partial += chunk; // a long frame arrives in many chunks: do not re-split it each time
      return;
    }
    const parts = chunk.split('\n');
    parts[0] = this.partial + parts[0];
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      this.complete.push(line);
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === 'object' && value !== null) this.parsed.push(value as Record<string, unknown>);
      } catch {
        // Not JSON: kept in lines() only.
      }
    }
  }

  send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Complete stdout lines so far. */
  lines(): string[] {
    return [...this.complete];
  }

  /** Complete lines that parse as JSON objects. */
  messages(): Array<Record<string, unknown>> {
    return [...this.parsed];
  }

  waitForMessage(predicate: (m: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    return waitFor(() => this.parsed.find(predicate), 'a matching stdout message', timeoutMs);
  }

  async initialize(): Promise<void> {
    this.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await this.waitForMessage((m) => m.id === 'init');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-http', version: '1' } },
} as const;

/** Spawns a server that prints its URL on the first stdout line; its stderr tail is kept for errors. */
export async function spawnUrlServer(command: string, args: string[], timeoutMs = 20_000): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8192)));
  try {
    const url = await waitFor(() => {
      if (!isRunning(child)) throw new Error(`${args.join(' ')} exited before printing its URL:\n${stderr}`);
      return /^(https?:\/\/\S+)\n/.exec(stdout)?.[1];
    }, 'the server URL', timeoutMs);
    return { child, url };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
