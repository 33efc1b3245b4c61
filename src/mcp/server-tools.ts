// One server's tool list inside the manager: the snapshot before it is ready, the live list once it
// is (with its cache hint), and reading it again after list_changed or past its TTL; a burst of
// list_changed coalesces into at most one more read, and one that came while the server started,
// after its first list was asked for, is read once it is ready.
import type { Tool } from '@modelcontextprotocol/client';
import type { ListCacheHint, McpClient } from '../mcp-client/index.js';
import { Coalesced, errorMessage, type Logger } from '../util/index.js';
import { ListFreshness } from './list-freshness.js';
import type { SnapshotCache } from './snapshot-store.js';

export class ServerTools {
  private live: Tool[] | undefined;
  private snapshot: Tool[] | undefined;
  private readonly freshness = new ListFreshness();
  private readonly reads = new Coalesced(() => this.readOnce());
  /** When a list_changed last came with no ready client to read the list again (while starting). */
  private unreadChangeAt: number | undefined;

  constructor(
    private readonly serverName: string,
    private readonly logger: Logger,
    /** The client to read the list from: the server's while it is ready, else none. */
    private readonly readyClient: () => McpClient | undefined,
    /** Ends reads when the server closes. */
    private readonly signal: AbortSignal,
    /** A read replaced the live list. */
    private readonly onChanged: () => void,
  ) {}

  /** What the server contributes in `phase`: live when ready, the snapshot while not yet started. */
  current(phase: string): { tools: Tool[]; source: 'live' | 'snapshot' } | undefined {
    if (phase === 'ready' && this.live) return { tools: this.live, source: 'live' };
    if ((phase === 'idle' || phase === 'starting') && this.snapshot) return { tools: this.snapshot, source: 'snapshot' };
    return undefined;
  }

  /** A snapshot a warm start may answer with instead of waiting: one without a TTL, or within it. */
  hasFreshSnapshot(now: number): boolean {
    return this.snapshot !== undefined && this.freshness.snapshotFresh(now);
  }

  /** The live list's cache hint, in the form a snapshot records it. */
  get listCache(): SnapshotCache | undefined {
    return this.freshness.forSnapshot();
  }

  /** Whether the live list is past its TTL and no read is running. */
  stale(now: number): boolean {
    return !this.reads.busy && this.freshness.liveExpired(now);
  }

  loadSnapshot(tools: Tool[], cache: SnapshotCache | undefined): void {
    this.snapshot = tools;
    this.freshness.snapshotLoaded(cache);
  }

  /** The server stopped while ready (stop_after_idle_sec): its live list is what it contributes until it starts again. */
  stopped(): void {
    if (this.live) this.loadSnapshot(this.live, this.listCache);
  }

  /** The live list, as read at `listedAt` (startup's first read, or a refresh). */
  listed(tools: Tool[], cache: ListCacheHint | undefined, listedAt: number): void {
    this.live = tools;
    this.freshness.listed(cache, listedAt);
  }

  /**
   * The server is ready with the first list it was asked for at `listedAt`: a list_changed that came
   * since (before the answer, which may or may not hold the change, or between the answer and now,
   * when nothing could read the list) is read now, as a list_changed to a ready server would be.
   */
  readyWithListOf(listedAt: number): void {
    const changedAt = this.unreadChangeAt;
    this.unreadChangeAt = undefined;
    if (changedAt !== undefined && changedAt >= listedAt) void this.refresh();
  }

  /** A recovered session listed tools that differ (the recovery read them already). */
  recovered(tools: Tool[]): void {
    this.live = tools;
    this.onChanged();
  }

  /** Read the list again from the ready client. */
  refresh(): Promise<void> {
    return this.reads.run();
  }

  private async readOnce(): Promise<void> {
    const client = this.readyClient();
    if (!client) {
      this.unreadChangeAt = Date.now();
      return;
    }
    try {
      const listedAt = Date.now();
      const { tools, cache } = await client.listToolsWithCache({ signal: this.signal });
      if (client !== this.readyClient()) return;
      this.listed(tools, cache, listedAt);
      this.onChanged();
    } catch (err) {
      this.logger.warn(`failed to refresh tools after list-changed notification for MCP server '${this.serverName}': ${errorMessage(err)}`);
    }
  }
}
