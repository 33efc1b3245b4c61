// Appending to a thread's rollout file: lines are buffered and written in order by one chain;
// flush() writes and fsyncs them (the turn loop flushes at turn start and turn end).
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { EventMsg } from '../../protocol/index.js';
import { errorMessage, nullLogger, type Logger } from '../../util/index.js';
import type { ResponseItem } from '../model/model-types.js';
import { rolloutPath, type RolloutLine, type SessionMeta, type TurnContext } from './rollout-schema.js';

export interface RecorderOptions {
  logger?: Logger;
  /** Called once, the first time a write fails (the thread keeps running without persistence). */
  onWriteError?: (message: string) => void;
  now?: () => Date;
}

export class RolloutRecorder {
  private buffer: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private failed = false;
  private closed = false;
  private readonly logger: Logger;
  private readonly now: () => Date;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly options: RecorderOptions,
  ) {
    this.logger = options.logger ?? nullLogger;
    this.now = options.now ?? (() => new Date());
  }

  /** Create a new rollout file for a thread and write its session metadata durably. */
  static async create(home: string, meta: SessionMeta, options: RecorderOptions = {}): Promise<RolloutRecorder> {
    const file = rolloutPath(home, meta.id, new Date(meta.timestamp));
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = await open(file, 'wx', 0o600);
    const recorder = new RolloutRecorder(file, handle, options);
    recorder.push({ timestamp: meta.timestamp, type: 'session_meta', payload: meta });
    await recorder.flush();
    return recorder;
  }

  /**
   * Reopen an existing rollout for appending. `validBytes` (from the reader) cuts off a torn last
   * line first, so new lines never get glued onto a half-written one.
   */
  static async reopen(file: string, validBytes: number | null, options: RecorderOptions = {}): Promise<RolloutRecorder> {
    const handle = await open(file, 'r+');
    try {
      if (validBytes !== null) await handle.truncate(validBytes);
      const { size } = await handle.stat();
      const last = Buffer.alloc(1);
      // A last line cut just before its newline still parses; end it so appends start on a new line.
      if (size > 0 && (await handle.read(last, 0, 1, size - 1)).bytesRead === 1 && last[0] !== 0x0a) {
        await handle.write('\n', size);
      }
    } finally {
      await handle.close();
    }
    return new RolloutRecorder(file, await open(file, 'a'), options);
  }

  private push(line: RolloutLine): void {
    if (this.closed) return;
    this.buffer.push(`${JSON.stringify(line)}\n`);
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  recordItems(items: readonly ResponseItem[]): void {
    for (const payload of items) this.push({ timestamp: this.stamp(), type: 'response_item', payload });
  }

  recordTurnContext(context: TurnContext): void {
    this.push({ timestamp: this.stamp(), type: 'turn_context', payload: context });
  }

  recordEvent(msg: EventMsg): void {
    this.push({ timestamp: this.stamp(), type: 'event_msg', payload: msg as RolloutLine['payload'] & { type: string } });
  }

  /** Write everything buffered so far and fsync; never rejects (failures are logged and reported once). */
  flush(): Promise<void> {
    const lines = this.buffer.join('');
    this.buffer = [];
    this.chain = this.chain.then(async () => {
      if (this.failed || lines === '') return;
      try {
        await this.handle.appendFile(lines, 'utf8');
        await this.handle.datasync();
      } catch (err) {
        this.failed = true;
        const message = `could not write the thread's rollout file ${this.path}: ${errorMessage(err)}; the thread continues but is no longer saved`;
        this.logger.error(message);
        this.options.onWriteError?.(message);
      }
    });
    return this.chain;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    await this.handle.close().catch(() => {});
  }
}
