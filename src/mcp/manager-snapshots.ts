// The manager's startup snapshots: every server's read once before the first start (so the catalog
// answers while servers start), each live list saved as it changes (written before save returns).
import type { ManagedServer } from './managed-server.js';
import type { SnapshotStore } from './snapshot-store.js';

export class ManagerSnapshots {
  private loading: Promise<void> | undefined;
  private done = false;

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
    this.store.save(server.config, live.tools, server.era, server.listCache);
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
