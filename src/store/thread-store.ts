// What a thread store is, whichever backend holds it: each thread's records (its rollout, one JSON
// text per record, append-only, in order) and the index of threads by id and creation time.

/** An open thread's append-only log. One writer at a time (the turn's lease guarantees it). */
export interface ThreadLog {
  /** Where the records live, for messages and `rollout_path` (a file path, or `postgres:threads/<id>`). */
  readonly location: string;
  /** Append records (JSON texts without newlines) durably and in order; rejects when they were not stored. */
  append(records: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** A thread's records as stored, ready to parse and to continue. */
export interface StoredThread {
  location: string;
  /** The records as rollout text: one record per line, each ending in `\n` (a torn last line may lack it). */
  text: string;
  /** How many whole records the store holds (what a later `reopen` appends after). */
  records: number;
  /** Open the log for appending; `validBytes` cuts a torn last line of a file first. */
  reopen(validBytes: number | null): Promise<ThreadLog>;
}

/** One row of the thread index. */
export interface ThreadSummary {
  id: string;
  createdAt: Date;
  location: string;
}

export interface ThreadStore {
  /** Where threads are kept, for messages: `under /home/sessions` or `in the PostgreSQL store`. */
  describe(): string;
  /** Create a thread with its first record (its session metadata); fails with `thread_exists` when the id is taken. */
  create(threadId: string, createdAt: Date, first: string): Promise<ThreadLog>;
  /** The thread's records, or null when no thread has this id. */
  load(threadId: string): Promise<StoredThread | null>;
  /** The index, newest first. */
  list(options?: { limit?: number }): Promise<ThreadSummary[]>;
}

/** Thread ids a store accepts: what newThreadId makes, and nothing that could walk a path. */
export const THREAD_ID = /^[A-Za-z0-9-]{1,64}$/;
