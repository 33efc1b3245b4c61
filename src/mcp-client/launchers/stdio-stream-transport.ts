// An SDK Transport over a server's stdin/stdout: newline-delimited JSON-RPC with the SDK's codec.
// Any break (exit, garbage on stdout, stdout closed) ends the connection with a typed reason.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { errorMessage } from '../../util/index.js';
import { McpClientError } from '../errors.js';

/** The SDK's own stdio limit: a server that writes more without a newline is broken. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** After stdout closes, wait this long for the exit status, which explains more than "closed". */
const EXIT_STATUS_GRACE_MS = 500;

export interface StdioStreams {
  stdin: Writable;
  stdout: Readable;
  /** The program name used in messages. */
  program: string;
  /** Stop whatever runs behind the streams; resolves when it is gone. */
  terminate(): Promise<void>;
}

type State = 'new' | 'open' | 'closing' | 'closed';

export class StdioStreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private state: State = 'new';
  private reason: McpClientError | undefined;
  private pendingBytes = 0;
  private stdoutTimer: ReturnType<typeof setTimeout> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly io: StdioStreams) {}

  /** Why the connection ended, when it ended on its own. */
  get closeReason(): McpClientError | undefined {
    return this.reason;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('stdio transport already started');
    this.state = 'open';
    const { stdin, stdout, program } = this.io;
    stdout.on('data', (chunk: Buffer) => {
      const nl = chunk.lastIndexOf(10);
      this.pendingBytes = nl === -1 ? this.pendingBytes + chunk.length : chunk.length - nl - 1;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.fail(new McpClientError('decode', `MCP server \`${program}\` wrote more than ${MAX_LINE_BYTES} bytes without a newline`));
      }
    });
    const lines = createInterface({ input: stdout, crlfDelay: Infinity });
    lines.on('line', (line) => this.onLine(line));
    lines.on('close', () => this.failSoon(new McpClientError('connection_closed', `MCP server \`${program}\` closed its stdout`)));
    stdin.on('error', (err) => {
      this.failSoon(new McpClientError('connection_closed', `cannot write to MCP server \`${program}\`: ${errorMessage(err)}`, { cause: err }));
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.state !== 'open') {
      throw this.reason ?? new McpClientError('connection_closed', `MCP server \`${this.io.program}\` is not connected`);
    }
    const { stdin } = this.io;
    // A failed write means the pipe broke: the connection ends (with the exit status, when the
    // process is gone), which fails every pending request with the real reason.
    await new Promise<void>((resolve) => {
      const ok = stdin.write(serializeMessage(message), (err) => {
        if (err) this.failSoon(new McpClientError('connection_closed', `cannot write to MCP server \`${this.io.program}\`: ${err.message}`, { cause: err }));
        if (err || ok) resolve();
      });
      if (!ok) stdin.once('drain', resolve);
    });
  }

  /** A broken pipe: give the process a moment to report its exit status, which says more. */
  private failSoon(reason: McpClientError): void {
    if (this.state !== 'open' || this.stdoutTimer !== undefined) return;
    this.stdoutTimer = setTimeout(() => this.fail(reason), EXIT_STATUS_GRACE_MS);
  }

  /** End the connection because of `reason` (process exit, bad output); the first reason wins. */
  fail(reason: McpClientError): void {
    if (this.state !== 'open') return;
    this.reason = reason;
    this.onerror?.(reason);
    void this.close();
  }

  async close(): Promise<void> {
    if (this.state === 'new') this.state = 'open';
    if (this.closing) return this.closing;
    this.state = 'closing';
    if (this.stdoutTimer !== undefined) clearTimeout(this.stdoutTimer);
    this.closing = (async () => {
      try {
        this.io.stdin.end();
      } catch {
        // already gone
      }
      await this.io.terminate().catch(() => {});
      this.state = 'closed';
      this.onclose?.();
    })();
    return this.closing;
  }

  private onLine(line: string): void {
    if (this.state !== 'open' || line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      const preview = line.length > 200 ? `${line.slice(0, 200)}…` : line;
      this.fail(new McpClientError('decode', `MCP server \`${this.io.program}\` wrote a line to stdout that is not JSON-RPC: ${preview}`, { cause: err }));
      return;
    }
    this.onmessage?.(message);
  }
}
