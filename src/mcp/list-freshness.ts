// How long a server's tool list stands (2026-07-28 `ttlMs`): the live list's age decides when the
// catalog reads it again, the snapshot's whether a warm start may answer with it. 2025 lists: always.
import type { ListCacheHint } from '../mcp-client/index.js';
import { snapshotIsFresh, type SnapshotCache } from './snapshot-store.js';

export class ListFreshness {
  private live: { hint: ListCacheHint; listedAt: number } | undefined;
  private snapshot: SnapshotCache | undefined;

  /** A live list was read at `listedAt`; without a hint it stays fresh until list_changed. */
  listed(hint: ListCacheHint | undefined, listedAt: number): void {
    this.live = hint ? { hint, listedAt } : undefined;
  }

  snapshotLoaded(cache: SnapshotCache | undefined): void {
    this.snapshot = cache;
  }

  liveExpired(now: number): boolean {
    return this.live !== undefined && now >= this.live.listedAt + this.live.hint.ttlMs;
  }

  snapshotFresh(now: number): boolean {
    return snapshotIsFresh({ cache: this.snapshot }, now);
  }

  /** The live list's hint, in the form a snapshot records it. */
  forSnapshot(): SnapshotCache | undefined {
    const live = this.live;
    return live ? { ttl_ms: live.hint.ttlMs, scope: live.hint.scope, listed_at: new Date(live.listedAt).toISOString() } : undefined;
  }
}
