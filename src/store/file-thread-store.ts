// The embedded thread store: one JSONL rollout file per thread under `$SWITCHBOARD_HOME/sessions/
// YYYY/MM/DD/rollout-<timestamp>-<id>.jsonl`, as Codex writes them; the folders are the index.
import { mkdir, open, readdir, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { SwitchboardError } from '../util/index.js';
import { THREAD_ID, type StoredThread, type ThreadLog, type ThreadStore, type ThreadSummary } from './thread-store.js';

/** `YYYY-MM-DDTHH-MM-SS` in UTC, the timestamp part of a rollout file name. */
export function fileTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/:/g, '-');
}

export function sessionsRoot(home: string): string {
  return path.join(home, 'sessions');
}

/** `$home/sessions/YYYY/MM/DD/rollout-<timestamp>-<threadId>.jsonl` (UTC date). */
export function rolloutPath(home: string, threadId: string, date: Date): string {
  const iso = date.toISOString();
  return path.join(sessionsRoot(home), iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10), `rollout-${fileTimestamp(date)}-${threadId}.jsonl`);
}

async function entriesDesc(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => pattern.test(n)).sort().reverse();
  } catch {
    return [];
  }
}

/** Every rollout file, newest day first (within a day, newest name first). */
async function* rolloutFiles(home: string): AsyncGenerator<{ dir: string; name: string }> {
  const root = sessionsRoot(home);
  for (const y of await entriesDesc(root, /^\d{4}$/)) {
    for (const m of await entriesDesc(path.join(root, y), /^\d{2}$/)) {
      for (const d of await entriesDesc(path.join(root, y, m), /^\d{2}$/)) {
        const dir = path.join(root, y, m, d);
        for (const name of await entriesDesc(dir, /^rollout-.*\.jsonl$/)) yield { dir, name };
      }
    }
  }
}

/** The rollout file of a thread, newest day first; null when none exists. */
export async function findRolloutFile(home: string, threadId: string): Promise<string | null> {
  if (!THREAD_ID.test(threadId)) return null;
  const suffix = `-${threadId}.jsonl`;
  for await (const { dir, name } of rolloutFiles(home)) if (name.endsWith(suffix)) return path.join(dir, name);
  return null;
}

const FILE_NAME = /^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([A-Za-z0-9-]{1,64})\.jsonl$/;

class FileThreadLog implements ThreadLog {
  constructor(
    readonly location: string,
    private readonly handle: FileHandle,
  ) {}

  async append(records: readonly string[]): Promise<void> {
    if (records.length === 0) return;
    await this.handle.appendFile(records.map((r) => `${r}\n`).join(''), 'utf8');
    await this.handle.datasync();
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => {});
  }
}

/** Open an existing rollout for appending, first cutting a torn last line so new lines never glue onto it. */
async function reopenFile(file: string, validBytes: number | null): Promise<ThreadLog> {
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
  return new FileThreadLog(file, await open(file, 'a'));
}

export class FileThreadStore implements ThreadStore {
  constructor(readonly home: string) {}

  describe(): string {
    return `under ${sessionsRoot(this.home)}`;
  }

  async create(threadId: string, createdAt: Date, first: string): Promise<ThreadLog> {
    if (!THREAD_ID.test(threadId)) throw new SwitchboardError('invalid_thread_id', `invalid thread id ${JSON.stringify(threadId)}`);
    const file = rolloutPath(this.home, threadId, createdAt);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    let handle: FileHandle;
    try {
      handle = await open(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new SwitchboardError('thread_exists', `thread ${threadId} already exists at ${file}`, { cause: err });
      throw err;
    }
    const log = new FileThreadLog(file, handle);
    try {
      await log.append([first]);
    } catch (err) {
      await log.close();
      throw err;
    }
    return log;
  }

  async load(threadId: string): Promise<StoredThread | null> {
    const file = await findRolloutFile(this.home, threadId);
    if (file === null) return null;
    const text = await readFile(file, 'utf8');
    const records = text.split('\n').length - 1;
    return { location: file, text, records, reopen: (validBytes) => reopenFile(file, validBytes) };
  }

  async list(options: { limit?: number } = {}): Promise<ThreadSummary[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const out: ThreadSummary[] = [];
    for await (const { dir, name } of rolloutFiles(this.home)) {
      if (out.length >= limit) break;
      const m = FILE_NAME.exec(name);
      if (!m) continue;
      const [date, time] = m[1]!.split('T') as [string, string];
      out.push({ id: m[2]!, createdAt: new Date(`${date}T${time.replace(/-/g, ':')}Z`), location: path.join(dir, name) });
    }
    return out;
  }
}
