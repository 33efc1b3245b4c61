// An SDK Transport over the stdin/stdout bytes of a server process that runs elsewhere (exec-server,
// ssh): the MCP framing stays here (the SDK's ReadBuffer/serializeMessage); the bytes travel there.
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { errorMessage, SwitchboardError, type Logger } from '../../util/index.js';
import { StderrLines } from './stderr-lines.js';

/** The remote half, supplied by a launcher. */
export interface RemoteProcessChannel {
  /** Write bytes to the server's stdin, in call order. */
  write(data: Buffer): Promise<void>;
  /** Kill the server's process group and drop the connection; resolves when done (bounded in time). */
  terminate(): Promise<void>;
}

export interface RemoteStdioTransportOptions {
  /** The program, for log lines (`MCP server stderr (<program>): ...`). */
  program: string;
  logger: Logger;
  onStderrLine?: (line: string) => void;
  /** Largest single message; larger ones close the transport (the SDK's default is 10 MB). */
  maxMessageBytes?: number;
}

type TransportState =
  | { type: 'created' }
  | { type: 'started' }
  | { type: 'closing' }
  | { type: 'closed'; reason: string };

export class RemoteStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private state: TransportState = { type: 'created' };
  private channel: RemoteProcessChannel | null = null;
  private readonly readBuffer: ReadBuffer;
  private readonly stderr: StderrLines;
  /** Messages and the end that arrived before start(): delivered by start(). */
  private early: JSONRPCMessage[] = [];
  private endedEarly: string | null = null;

  constructor(private readonly options: RemoteStdioTransportOptions) {
    this.readBuffer = new ReadBuffer({ maxBufferSize: options.maxMessageBytes });
    this.stderr = new StderrLines((line) => {
      options.logger.info(`MCP server stderr (${options.program}): ${line}`);
      options.onStderrLine?.(line);
    });
  }

  attach(channel: RemoteProcessChannel): void {
    this.channel = channel;
  }

  stderrTail(): string[] {
    return this.stderr.lines();
  }

  /** Bytes from the server's stdout. */
  receiveStdout(chunk: Buffer): void {
    if (this.state.type === 'closed') return;
    try {
      this.readBuffer.append(chunk);
    } catch (err) {
      this.reportError(err);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (err) {
        // A line that is JSON but not JSON-RPC: report it and keep reading, like the SDK's stdio client.
        this.reportError(err);
        continue;
      }
      if (message === null) break;
      if (this.state.type === 'created') this.early.push(message);
      else this.onmessage?.(message);
    }
  }

  receiveStderr(chunk: Buffer): void {
    this.stderr.push(chunk);
  }

  /** The process exited or its connection dropped: the transport is closed (`onclose`). */
  ended(reason: string): void {
    this.stderr.flush();
    if (this.state.type === 'created') {
      this.endedEarly = reason;
      return;
    }
    this.finish(reason);
  }

  async start(): Promise<void> {
    if (this.state.type !== 'created') throw new SwitchboardError('transport_started', 'transport already started');
    this.state = { type: 'started' };
    const early = this.early;
    this.early = [];
    for (const message of early) this.onmessage?.(message);
    if (this.endedEarly !== null) {
      const reason = this.endedEarly;
      queueMicrotask(() => this.finish(reason));
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.state.type === 'closing' || this.state.type === 'closed' || this.endedEarly !== null) {
      const reason = this.state.type === 'closed' ? this.state.reason : (this.endedEarly ?? 'transport is closing');
      throw new SwitchboardError('transport_closed', `cannot send to MCP server ${this.options.program}: ${reason}`);
    }
    if (!this.channel) throw new SwitchboardError('transport_not_ready', 'transport has no process yet');
    await this.channel.write(Buffer.from(serializeMessage(message), 'utf8'));
  }

  async close(): Promise<void> {
    if (this.state.type === 'closing' || this.state.type === 'closed') return;
    this.state = { type: 'closing' };
    try {
      await this.channel?.terminate();
    } catch (err) {
      this.options.logger.warn('stopping the remote MCP server failed', { program: this.options.program, error: errorMessage(err) });
    }
    this.finish('closed');
  }

  private finish(reason: string): void {
    if (this.state.type === 'closed') return;
    this.state = { type: 'closed', reason };
    this.readBuffer.clear();
    this.onclose?.();
  }

  private reportError(err: unknown): void {
    this.onerror?.(err instanceof Error ? err : new Error(errorMessage(err)));
  }
}
