// Whose agent threads are whose under [server_auth]: a thread belongs to the caller that started it
// (its token's issuer and subject), remembered in memory and in an append-only file so the owner
// survives the thread being unloaded and the server restarting (`codex-reply` resumes from disk).
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Caller, CallerView } from '../mcp-host/index.js';

export class ThreadOwners {
  private readonly owners = new Map<string, string>();
  private loaded: Promise<void> | undefined;

  /** `file`: JSON lines `{"thread","owner"}`; absent, owners live as long as the process. */
  constructor(private readonly file?: string) {}

  async record(threadId: string, caller: Caller | undefined): Promise<void> {
    if (!caller || caller.kind === 'static') return;
    this.owners.set(threadId, caller.key);
    if (!this.file) return;
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await appendFile(this.file, `${JSON.stringify({ thread: threadId, owner: caller.key })}\n`, { mode: 0o600 });
  }

  /**
   * The caller may continue the thread: its own, or any with a rule's `threads = "all"`; on stdio, and
   * for the static token, every thread. A thread with no recorded owner belongs to no token caller.
   */
  async mayContinue(threadId: string, caller: Caller | undefined, view: CallerView): Promise<boolean> {
    if (!caller || caller.kind === 'static' || view.allThreads) return true;
    await this.load();
    return this.owners.get(threadId) === caller.key;
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      if (!this.file) return;
      const text = await readFile(this.file, 'utf8').catch(() => '');
      for (const line of text.split('\n')) {
        try {
          const entry = JSON.parse(line) as { thread?: unknown; owner?: unknown };
          // Entries recorded since start win over the file's.
          if (typeof entry.thread === 'string' && typeof entry.owner === 'string' && !this.owners.has(entry.thread)) this.owners.set(entry.thread, entry.owner);
        } catch {
          // a torn last line
        }
      }
    })();
    return this.loaded;
  }
}
