// The manager's startup snapshots: every server's read once before the first start (so the catalog
// answers while servers start), each live list saved as it changes, and those writes waited for at close.
import type { ManagedServer } from './managed-server.js';
import type { SnapshotStore } from './snapshot-store.js';

export class ManagerSnapshots {
  private loading: Promise<void> | undefined;
  private done = false;
  /** Writes still running; close() waits for them so a closed manager left its files complete. */
  private readonly saving = new Set<Promise<void>>();

  constructor(readonly store: SnapshotStore | undefined) {}

  /** Every snapshot is in (true for every call but the first few: nothing to wait for). */
  get loaded(): boolean {
    return this.done;
  }

  /** Reads the snapshot of every server `servers()` gives, once; `then` runs when they are in (with a store). */
  load(servers: () => Iterable<ManagedServer>, then: () => void): Promise<void> {
    this.loading ??= this.read(servers(), then).then(() => {
      this.done = true;
    });
    return this.loading;
  }

  /** Keeps `server`'s list when it is a live one of a ready server. */
  save(server: ManagedServer): void {
    const live = server.tools;
    if (live?.source !== 'live' || server.phase.kind !== 'ready' || !this.store) return;
    const saving = this.store.save(server.config, live.tools, server.era, server.listCache);
    this.saving.add(saving);
    void saving.finally(() => this.saving.delete(saving));
  }

  /** Resolves when the writes running now have ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.saving]);
  }

  private async read(servers: Iterable<ManagedServer>, then: () => void): Promise<void> {
    const store = this.store;
    if (!store) return;
    await Promise.all(
      [...servers].map(async (s) => {
        const snap = await store.load(s.config);
        if (snap) s.setSnapshot(snap.tools, snap.era, snap.cache);
      }),
    );
    then();
  }
}
