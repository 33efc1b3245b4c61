// The one MCP client transport for a stdio server, wherever it runs (here, on an exec-server, over
// SSH): newline-delimited JSON-RPC over a byte channel that the launcher supplies, decoded and
// validated by the SDK's codec. Launchers only move bytes and report how the process ended.
//
// Framing policy, the same for every launcher (docs/reliability.md):
// - A stdout line that is not a JSON-RPC message (not JSON, or JSON the SDK's schema rejects) is
//   skipped and logged at warn with a short excerpt. Servers and their wrappers (npx, shell
//   profiles) print banners on stdout; the SDK's stdio client and Codex's rmcp skip such lines too.
//   A request whose answer never comes fails on its own deadline.
// - A line longer than MAX_LINE_BYTES (10 MiB, the SDK's bound) ends the connection ('decode').
// - Empty lines are ignored; a trailing `\r` is dropped.
import { deserializeMessage, serializeMessage, specTypeSchemas, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { errorMessage, isPlainJsonRpcMessage, LineFramer, MAX_LINE_BYTES, type Logger } from '../../util/index.js';
import { STDERR_TAIL_LINES } from '../defaults.js';
import { McpClientError } from '../errors.js';
import { StderrLines } from './stderr-lines.js';

/** After the pipe breaks, wait this long for the exit status, which explains more than "closed". */
const EXIT_STATUS_GRACE_MS = 500;
/** How much of a skipped line the warning quotes. */
const EXCERPT_CHARS = 200;
/** What send() returns for a frame that is on its way: one settled promise for them all. */
const SENT: Promise<void> = Promise.resolve();

/**
 * A line as the SDK's `deserializeMessage` reads it, for less work. That one parses every message
 * with the union of the four JSON-RPC message schemas, which tries each in turn and keeps the
 * failures of the ones before (a response meets three); 3-6 KB and most of the time of a small
 * message went there. The four are strict objects that exclude each other by their keys (only a
 * request has `method` and `id`, only a notification `method` without `id`, only a result
 * `result`, only an error `error`), so the one schema a message's keys name gives what the union
 * would; a message it rejects goes through the union after all, for the same error. The commonest
 * frames (no `_meta`: util's isPlainJsonRpcMessage) need no schema at all.
 */
export function decodeMessage(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  if (isPlainJsonRpcMessage(value)) return value as JSONRPCMessage;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const schema =
      'method' in value
        ? 'id' in value
          ? specTypeSchemas.JSONRPCRequest
          : specTypeSchemas.JSONRPCNotification
        : 'result' in value
          ? specTypeSchemas.JSONRPCResultResponse
          : 'error' in value
            ? specTypeSchemas.JSONRPCErrorResponse
            : undefined;
    const decoded = schema?.['~standard'].validate(value);
    if (decoded && !decoded.issues) return decoded.value as JSONRPCMessage;
  }
  return deserializeMessage(line);
}

/** The launcher's half: where the bytes go and how the process is stopped. */
export interface ProcessChannel {
  /**
   * Write one frame to the server's stdin, in call order. Returns nothing when the frame is queued
   * and the caller need not wait; a promise when it should (a full pipe, a remote hop), which
   * rejects when the channel is broken. A broken pipe is also reported through `broken`/`ended`.
   */
  write(frame: string): Promise<void> | void;
  /** Stop the server (its whole process group) and release the channel; resolves when done, bounded in time. */
  terminate(): Promise<void>;
}

export interface StdioTransportOptions {
  /** The program, for messages (`MCP server \`<program>\` ...`) and stderr log lines. */
  program: string;
  logger: Logger;
  onStderrLine?: (line: string) => void;
  /** Largest single line; a longer one ends the connection. */
  maxLineBytes?: number;
}

type State = 'new' | 'open' | 'closing' | 'closed';

export class StdioTransport implements Transport {
  /**
   * The SDK treats a transport with `stderr` and `pid` as stdio when it probes the era: a probe
   * that times out there means a 2025 server (initialize follows), not an outage. The process may
   * be remote, so there is no pid to give.
   */
  readonly pid: number | undefined = undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private state: State = 'new';
  private channel: ProcessChannel | undefined;
  private readonly framer: LineFramer;
  private readonly stderr: StderrLines;
  /** Messages and the end that arrived before start(): start() delivers them. */
  private early: JSONRPCMessage[] = [];
  private earlyEnd: McpClientError | undefined;
  private reason: McpClientError | undefined;
  private brokenTimer: ReturnType<typeof setTimeout> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: StdioTransportOptions) {
    this.framer = new LineFramer(options.maxLineBytes ?? MAX_LINE_BYTES);
    this.stderr = new StderrLines((line) => {
      options.logger.info(`MCP server stderr (${options.program}): ${line}`);
      options.onStderrLine?.(line);
    }, STDERR_TAIL_LINES);
  }

  attach(channel: ProcessChannel): void {
    this.channel = channel;
  }

  /** Why the connection ended, when it ended on its own. */
  get closeReason(): McpClientError | undefined {
    return this.reason;
  }

  stderrTail(): string[] {
    return this.stderr.lines();
  }

  /** Bytes from the server's stdout. */
  receiveStdout(chunk: Buffer): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    if (!this.framer.push(chunk, this.onLine)) {
      const max = this.framer.maxLineBytes;
      this.fail(new McpClientError('decode', `MCP server \`${this.options.program}\` wrote more than ${max} bytes without a newline`));
    }
  }

  /** Bytes from the server's stderr. */
  receiveStderr(chunk: Buffer): void {
    this.stderr.push(chunk);
  }

  /** The server's stderr ended: its last unterminated line is complete. */
  stderrEnded(): void {
    this.stderr.flush();
  }

  /** The process is gone (its exit status) or its connection dropped: the connection ends with `reason`. */
  ended(reason: McpClientError): void {
    this.stderr.flush();
    this.fail(reason);
  }

  /** The pipe broke (stdout closed, a write failed): give the exit status a moment to say more. */
  broken(reason: McpClientError): void {
    if (this.state === 'closing' || this.state === 'closed' || this.brokenTimer !== undefined) return;
    this.brokenTimer = setTimeout(() => this.fail(reason), EXIT_STATUS_GRACE_MS);
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('stdio transport already started');
    this.state = 'open';
    const early = this.early;
    this.early = [];
    for (const message of early) this.onmessage?.(message);
    const end = this.earlyEnd;
    if (end) queueMicrotask(() => this.fail(end));
  }

  /**
   * Not async, and it does not wait for the write to complete (nor does the SDK's own stdio
   * transport): a pipe write is queued synchronously, and waiting for its callback cost a promise and
   * a tick per message. Only a full pipe (backpressure) gives a promise to wait on.
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.state !== 'open' || this.earlyEnd) {
      return Promise.reject(this.reason ?? this.earlyEnd ?? new McpClientError('connection_closed', `MCP server \`${this.options.program}\` is not connected`));
    }
    if (!this.channel) return Promise.reject(new McpClientError('not_ready', `MCP server \`${this.options.program}\` has no process yet`));
    let pending: Promise<void> | void;
    try {
      pending = this.channel.write(serializeMessage(message));
    } catch (err) {
      this.writeFailed(err);
      return SENT;
    }
    return pending ? pending.catch((err: unknown) => this.writeFailed(err)) : SENT;
  }

  /**
   * The connection ends (with the exit status, when the process is gone), which fails every pending
   * request, the one being sent included, with the real reason.
   */
  private writeFailed(err: unknown): void {
    this.broken(new McpClientError('connection_closed', `cannot write to MCP server \`${this.options.program}\`: ${errorMessage(err)}`, { cause: err }));
  }

  async close(): Promise<void> {
    if (this.closing) return this.closing;
    this.state = 'closing';
    if (this.brokenTimer !== undefined) clearTimeout(this.brokenTimer);
    this.closing = (async () => {
      try {
        await this.channel?.terminate();
      } catch (err) {
        this.options.logger.warn(`stopping MCP server \`${this.options.program}\` failed: ${errorMessage(err)}`);
      }
      this.state = 'closed';
      this.framer.clear();
      this.onclose?.();
    })();
    return this.closing;
  }

  /** End the connection because of `reason`; the first reason wins. */
  private fail(reason: McpClientError): void {
    if (this.state === 'new') {
      this.earlyEnd ??= reason;
      return;
    }
    if (this.state !== 'open') return;
    this.reason = reason;
    this.onerror?.(reason);
    void this.close();
  }

  private readonly onLine = (line: string): boolean => {
    if (line.trim() === '') return true;
    let message: JSONRPCMessage;
    try {
      message = decodeMessage(line);
    } catch (err) {
      const what = err instanceof SyntaxError ? 'not JSON' : 'not a JSON-RPC message';
      const excerpt = line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
      this.options.logger.warn(`MCP server \`${this.options.program}\` wrote a stdout line that is ${what}; skipped: ${excerpt}`);
      return true;
    }
    if (this.state === 'new') this.early.push(message);
    else this.onmessage?.(message);
    // A handler may have closed the transport; the rest of the chunk is not for anyone.
    return this.state === 'new' || this.state === 'open';
  };
}
