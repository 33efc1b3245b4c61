// Who owns each agent thread under [server_auth] (the caller key that started it), kept where every
// process serving the threads sees it: an append-only file under $SWITCHBOARD_HOME, or PostgreSQL.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ThreadOwnerStore {
  /** Remember the thread's owner; the first owner recorded for a thread stays its owner. */
  record(threadId: string, owner: string): Promise<void>;
  /** The thread's owner, or null when none was recorded. */
  ownerOf(threadId: string): Promise<string | null>;
}

/** `$SWITCHBOARD_HOME/sessions/thread-owners.jsonl`: JSON lines `{"thread","owner"}`. */
export function threadOwnersFile(home: string): string {
  return path.join(home, 'sessions', 'thread-owners.jsonl');
}

/** Owners in a JSONL file read once, then kept in memory (one process owns the file's threads). */
export class FileThreadOwnerStore implements ThreadOwnerStore {
  private readonly owners = new Map<string, string>();
  private loaded: Promise<void> | undefined;

  constructor(private readonly file: string) {}

  async record(threadId: string, owner: string): Promise<void> {
    await this.load();
    if (this.owners.has(threadId)) return;
    this.owners.set(threadId, owner);
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await appendFile(this.file, `${JSON.stringify({ thread: threadId, owner })}\n`, { mode: 0o600 });
  }

  async ownerOf(threadId: string): Promise<string | null> {
    await this.load();
    return this.owners.get(threadId) ?? null;
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const text = await readFile(this.file, 'utf8').catch(() => '');
      for (const line of text.split('\n')) {
        try {
          const entry = JSON.parse(line) as { thread?: unknown; owner?: unknown };
          if (typeof entry.thread === 'string' && typeof entry.owner === 'string' && !this.owners.has(entry.thread)) this.owners.set(entry.thread, entry.owner);
        } catch {
          // a torn last line
        }
      }
    })();
    return this.loaded;
  }
}
