// Whose agent threads are whose under [server_auth]: a thread belongs to the caller that started it
// (its token's issuer and subject), kept in the store so the owner survives the thread being unloaded,
// the server restarting, and (with PostgreSQL) is known to every replica that continues the thread.
import type { Caller, CallerView } from '../mcp-host/index.js';
import type { ThreadOwnerStore } from '../store/index.js';

export class ThreadOwners {
  // An owner never changes once recorded, so what was read once stays true.
  private readonly owners = new Map<string, string>();

  /** `store`: where owners are kept (the store's); absent, owners live as long as the process. */
  constructor(private readonly store?: ThreadOwnerStore) {}

  async record(threadId: string, caller: Caller | undefined): Promise<void> {
    if (!caller || caller.kind === 'static') return;
    if (!this.owners.has(threadId)) this.owners.set(threadId, caller.key);
    await this.store?.record(threadId, caller.key);
  }

  /**
   * The caller may continue the thread: its own, or any with a rule's `threads = "all"`; on stdio, and
   * for the static token, every thread. A thread with no recorded owner belongs to no token caller.
   */
  async mayContinue(threadId: string, caller: Caller | undefined, view: CallerView): Promise<boolean> {
    if (!caller || caller.kind === 'static' || view.allThreads) return true;
    return (await this.ownerOf(threadId)) === caller.key;
  }

  private async ownerOf(threadId: string): Promise<string | null> {
    const known = this.owners.get(threadId);
    if (known !== undefined) return known;
    const stored = (await this.store?.ownerOf(threadId)) ?? null;
    if (stored !== null) this.owners.set(threadId, stored);
    return stored;
  }
}
