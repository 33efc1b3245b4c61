// Appending to a thread's rollout in its store: lines are buffered and written in order by one
// chain; flush() stores them durably (the turn loop flushes at turn start and turn end).
import type { EventMsg } from '../../protocol/index.js';
import { FileThreadStore, type ThreadLog, type ThreadStore } from '../../store/index.js';
import { errorMessage, nullLogger, type Logger } from '../../util/index.js';
import type { ResponseItem } from '../model/model-types.js';
import type { RolloutLine, SessionMeta, TurnContext } from './rollout-schema.js';

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

  constructor(
    private readonly log: ThreadLog,
    private readonly options: RecorderOptions = {},
  ) {
    this.logger = options.logger ?? nullLogger;
    this.now = options.now ?? (() => new Date());
  }

  /** Where the records go: a file path, or the thread's location in a shared store. */
  get path(): string {
    return this.log.location;
  }

  /** Whether every record so far reached the store. */
  get healthy(): boolean {
    return !this.failed;
  }

  /** Create a thread in a store (a path: the file store under that home) with its session metadata, durably. */
  static async create(store: ThreadStore | string, meta: SessionMeta, options: RecorderOptions = {}): Promise<RolloutRecorder> {
    const threads = typeof store === 'string' ? new FileThreadStore(store) : store;
    const line: RolloutLine = { timestamp: meta.timestamp, type: 'session_meta', payload: meta };
    return new RolloutRecorder(await threads.create(meta.id, new Date(meta.timestamp), JSON.stringify(line)), options);
  }

  private push(line: RolloutLine): void {
    if (this.closed) return;
    this.buffer.push(JSON.stringify(line));
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

  /** Store everything buffered so far; never rejects (failures are logged and reported once). */
  flush(): Promise<void> {
    const records = this.buffer;
    this.buffer = [];
    this.chain = this.chain.then(async () => {
      if (this.failed || records.length === 0) return;
      try {
        await this.log.append(records);
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
    await this.log.close().catch(() => {});
  }
}
