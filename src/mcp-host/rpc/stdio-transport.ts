// Newline-delimited JSON-RPC on a pair of streams, answering bad frames the way Codex's final server
// did: unparsable JSON gets -32700 with id null, a structurally invalid message gets -32600 with its
// id, and the connection stays usable; a line over MAX_LINE_BYTES closes it ('line_too_long'). Lines
// are split by the shared LineFramer (util); messages are validated and serialised with the SDK's
// helpers. (The SDK's ReadBuffer skips unparsable lines silently, so it cannot answer them.)
import type { Readable, Writable } from 'node:stream';
import {
  parseJSONRPCMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { errorMessage, LineFramer, MAX_LINE_BYTES, plainJsonRpcFrame, type Logger } from '../../util/index.js';

export type StdioCloseReason = 'eof' | 'output_failed' | 'closed' | 'line_too_long';

function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

export class StdioFrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly framer = new LineFramer(MAX_LINE_BYTES);
  private closed = false;
  private corked = false;
  private drainWait: Promise<void> | null = null;
  private reason: StdioCloseReason = 'closed';
  private markClosed!: () => void;
  /** Resolves once the connection is over (EOF, output failure, close()), whoever else listens to onclose. */
  readonly ended = new Promise<void>((resolve) => (this.markClosed = resolve));

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly logger: Logger,
  ) {}

  /** Why the transport closed (valid once onclose has fired). */
  get closeReason(): StdioCloseReason {
    return this.reason;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onInputError);
    this.output.on('error', this.onOutputError);
  }

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (!this.framer.push(data, this.onLine)) {
      this.logger.error('input line exceeds the maximum size; closing', { maxBytes: MAX_LINE_BYTES });
      this.shutdown('line_too_long');
    }
  };

  private readonly onLine = (line: string): boolean => {
    this.handleLine(line);
    return !this.closed;
  };

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.logger.warn('unparsable input frame', { error: errorMessage(err) });
      this.reply({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${errorMessage(err)}` } });
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = (plainJsonRpcFrame(value) as JSONRPCMessage | undefined) ?? parseJSONRPCMessage(value);
    } catch (err) {
      this.logger.warn('invalid JSON-RPC frame', { error: errorMessage(err) });
      // A notification-shaped mistake cannot be answered (no id); anything else gets -32600.
      const id = idOf(value);
      const looksLikeNotification = typeof value === 'object' && value !== null && !('id' in value) && 'method' in value;
      if (!looksLikeNotification) this.reply({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } });
      return;
    }
    this.onmessage?.(message);
  }

  private reply(frame: Record<string, unknown>): void {
    if (this.closed) return;
    this.output.write(serializeMessage(frame as unknown as JSONRPCMessage));
  }

  // Deferred a turn of the event loop: requests read before EOF are dispatched and the quick ones
  // (ping, tools/list) answered before the connection closes; running tool calls are cancelled.
  private readonly onEnd = () => void setImmediate(() => this.shutdown('eof'));
  private readonly onInputError = (err: Error) => {
    this.onerror?.(err);
    this.shutdown('eof');
  };
  private readonly onOutputError = (err: Error) => {
    this.logger.error('stdout failed; shutting down', { error: errorMessage(err) });
    this.onerror?.(err);
    this.shutdown('output_failed');
  };

  /**
   * Resolves as soon as the frame is buffered; only a full buffer makes the caller wait for 'drain',
   * so a slow reader slows the turn down instead of growing memory.
   */
  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.closed) return Promise.reject(new Error('stdio transport is closed'));
    // Frames written in one tick leave in one write (a turn streams thousands of small events).
    if (!this.corked) {
      this.corked = true;
      this.output.cork();
      process.nextTick(() => {
        this.corked = false;
        this.output.uncork();
      });
    }
    if (this.output.write(serializeMessage(message))) return Promise.resolve();
    return this.waitForDrain();
  }

  /** One waiter for every sender blocked on a full buffer. */
  private waitForDrain(): Promise<void> {
    this.drainWait ??= new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        this.output.off('drain', onDrain);
        this.output.off('error', onError);
        this.drainWait = null;
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => settle();
      const onError = (err: Error) => settle(err);
      this.output.on('drain', onDrain);
      this.output.on('error', onError);
    });
    return this.drainWait;
  }

  /** Resolves true once everything written so far has been flushed, false after `timeoutMs`. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.reason === 'output_failed' || this.output.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      // Write callbacks run in order, so this one fires after every earlier frame has left.
      this.output.write('', (err) => {
        clearTimeout(timer);
        resolve(!err);
      });
    });
  }

  async close(): Promise<void> {
    this.shutdown('closed');
  }

  private shutdown(reason: StdioCloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.reason = reason;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onInputError);
    // stdin must not keep the process alive once the connection is over.
    this.input.pause();
    if ('destroy' in this.input && reason !== 'eof') this.input.destroy();
    this.markClosed();
    this.onclose?.();
  }
}
