// The `subscriptions/listen` stream of one 2026-07-28 connection: the list changes the server
// advertises plus the resources subscribed to, re-opened with bounded backoff when the server drops it.
// Notifications on it reach the SDK client's ordinary notification handlers (sdk-client.ts).
import type { Client, McpSubscription, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import { METHOD_NOT_FOUND, ProtocolError } from '@modelcontextprotocol/client';
import { errorMessage, type Logger } from '../util/index.js';
import { LISTEN_RETRY_DELAYS_MS, LISTEN_STABLE_MS } from './defaults.js';
import type { McpClientHandlers } from './types.js';

export type ListenFilter = SubscriptionFilter;
type Filter = SubscriptionFilter;

export interface ListenStreamSetup {
  serverName: string;
  logger: Logger;
  /**
   * The stream was re-opened after a drop: changes made meanwhile were never announced, so whatever
   * `honored` covers must be read again.
   */
  onReopened(honored: ListenFilter): void;
  /** The resource URIs subscribed to; shared by every connection generation of one client. */
  resourceSubscriptions: ReadonlySet<string>;
  /** The ack deadline of each listen request. */
  timeoutMs: number;
  retryDelaysMs?: readonly number[];
}

export class ListenStream {
  private subscription: McpSubscription | undefined;
  /** Bumped on every (re)open, so a close we caused ourselves is not taken for a drop. */
  private epoch = 0;
  private failures = 0;
  private openedAt = 0;
  private reopenTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly client: Client,
    private readonly setup: ListenStreamSetup,
  ) {}

  /** What to listen for: list changes the server says it announces, and the subscribed resources. */
  filter(): Filter {
    const caps: ServerCapabilities = this.client.getServerCapabilities() ?? {};
    const uris = caps.resources?.subscribe ? [...this.setup.resourceSubscriptions] : [];
    return {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
    };
  }

  /** Open the stream in the background (nothing to listen for: nothing is opened). */
  start(): void {
    void this.open(false).catch(() => {});
  }

  /**
   * Listen with the current filter (a resource was subscribed or unsubscribed); waits for the ack.
   * The new stream opens before the old one closes, so no change falls in between.
   */
  async reopen(): Promise<void> {
    this.clearTimer();
    const old = this.subscription;
    this.subscription = undefined;
    try {
      await this.open(false);
    } finally {
      // Its cancellation goes out behind us: a server slow to take it must not hold the caller.
      void old?.close().catch(() => {});
    }
  }

  /** Stop listening; the cancellation is sent behind us (closing the connection must not wait on it). */
  close(): void {
    this.stopped = true;
    this.clearTimer();
    const sub = this.subscription;
    this.subscription = undefined;
    void sub?.close().catch(() => {});
  }

  /** `resync`: the stream was down, so what it covers is read again once it is back. */
  private async open(resync: boolean): Promise<void> {
    if (this.stopped || !this.client.transport) return;
    const filter = this.filter();
    if (Object.keys(filter).length === 0) return;
    const epoch = ++this.epoch;
    let sub: McpSubscription;
    try {
      sub = await this.client.listen(filter, { timeout: this.setup.timeoutMs });
    } catch (err) {
      if (epoch !== this.epoch || this.stopped) return;
      if (err instanceof ProtocolError && err.code === METHOD_NOT_FOUND) {
        this.setup.logger.info(`MCP server '${this.setup.serverName}' does not offer subscriptions/listen; its lists are re-read when their cache time runs out`);
        return;
      }
      this.dropped(`could not open: ${errorMessage(err)}`);
      throw err;
    }
    if (epoch !== this.epoch || this.stopped) {
      await sub.close();
      return;
    }
    this.subscription = sub;
    this.openedAt = Date.now();
    void sub.closed.then((cause) => {
      if (epoch !== this.epoch || this.stopped || cause === 'local') return;
      this.subscription = undefined;
      this.dropped(cause === 'graceful' ? 'the server ended it' : 'the stream dropped');
    });
    // Changes made while the stream was down were never announced: read the lists again.
    if (resync) this.setup.onReopened(sub.honoredFilter);
  }

  /** Schedule the next attempt; a stream that stayed up a while starts the backoff afresh. */
  private dropped(why: string): void {
    if (this.stopped || !this.client.transport) return;
    if (this.openedAt && Date.now() - this.openedAt >= LISTEN_STABLE_MS) this.failures = 0;
    this.openedAt = 0;
    const delays = this.setup.retryDelaysMs ?? LISTEN_RETRY_DELAYS_MS;
    if (this.failures >= delays.length) {
      this.setup.logger.warn(`MCP server '${this.setup.serverName}': subscriptions/listen ${why}; gave up after ${this.failures} attempts (lists are re-read when their cache time runs out)`);
      return;
    }
    const delay = delays[this.failures]!;
    this.failures += 1;
    this.setup.logger.info(`MCP server '${this.setup.serverName}': subscriptions/listen ${why}; re-opening in ${delay} ms`);
    this.clearTimer();
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      void this.open(true).catch(() => {});
    }, delay);
    this.reopenTimer.unref();
  }

  private clearTimer(): void {
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.reopenTimer = undefined;
  }
}

/**
 * A dropped stream is back: what changed meanwhile was never announced, so say it now; the lists it
 * covers are marked to be read past the SDK's cache once (`staleLists`).
 */
export function announceAfterDrop(honored: ListenFilter, handlers: McpClientHandlers, staleLists: Set<string>): void {
  if (honored.promptsListChanged) staleLists.add('prompts/list');
  if (honored.resourcesListChanged) {
    staleLists.add('resources/list');
    staleLists.add('resources/templates/list');
  }
  if (honored.toolsListChanged) handlers.onToolsListChanged?.();
  if (honored.promptsListChanged) handlers.onPromptsListChanged?.();
  if (honored.resourcesListChanged) handlers.onResourcesListChanged?.();
  for (const uri of honored.resourceSubscriptions ?? []) handlers.onResourceUpdated?.(uri);
}
