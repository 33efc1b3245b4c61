// Resource subscriptions of every client of a gateway: per URI and upstream connection, the clients
// that subscribed and the server that serves it. The connection is the server's shared one, or for a
// server that acts as each caller that caller's own: so each caller is subscribed upstream as
// itself, and hears only what its own connection reports. The upstream is subscribed once per
// (URI, connection), when its first client subscribes, and unsubscribed when the last one
// unsubscribes or goes away; updates reach subscribers only. A URI is kept in its canonical form,
// however a client or the server spells it.
import { canonicalUri } from '../mcp/index.js';
import type { UpstreamCaller } from '../mcp-client/index.js';

interface Entry<C> {
  server: string;
  /** Whose own connection holds the upstream subscription (by key, without its token); undefined: the server's shared one. */
  caller: UpstreamCaller | undefined;
  clients: Set<C>;
  /** The upstream subscription, settled once the server has answered. */
  upstream: Promise<void>;
}

/** An upstream subscription nobody holds any more: to unsubscribe, on that connection. */
export interface Emptied {
  uri: string;
  server: string;
  caller: UpstreamCaller | undefined;
}

const SHARED = '';

export class PoolSubscriptions<C> {
  /** Per canonical URI, per connection (a caller's key, or SHARED). */
  private readonly byUri = new Map<string, Map<string, Entry<C>>>();

  /**
   * `client` subscribes to `uri` on `server`, on `caller`'s own connection (undefined: the shared one);
   * `subscribe` runs only for the first subscriber of that URI on that connection.
   */
  async add(client: C, spelled: string, server: string, caller: UpstreamCaller | undefined, subscribe: () => Promise<void>): Promise<void> {
    const uri = canonicalUri(spelled);
    const owner = caller?.key ?? SHARED;
    let byOwner = this.byUri.get(uri);
    if (!byOwner) this.byUri.set(uri, (byOwner = new Map()));
    let entry = byOwner.get(owner);
    if (!entry || entry.server !== server) {
      // Not the token it subscribed with: unsubscribing later must not hand the connection a stale one.
      const created: Entry<C> = { server, caller: caller && { key: caller.key }, clients: new Set(), upstream: subscribe() };
      entry = created;
      byOwner.set(owner, created);
      created.upstream.catch(() => {
        if (byOwner.get(owner) === created && created.clients.size === 0) this.delete(uri, owner);
      });
    }
    await entry.upstream;
    entry.clients.add(client);
  }

  /** What to unsubscribe upstream when `client` was the last subscriber of `uri` on its connection; undefined otherwise. */
  remove(client: C, spelled: string): Emptied | undefined {
    const uri = canonicalUri(spelled);
    for (const [owner, entry] of this.byUri.get(uri) ?? []) {
      if (!entry.clients.delete(client)) continue;
      if (entry.clients.size > 0) return undefined;
      this.delete(uri, owner);
      return { uri, server: entry.server, caller: entry.caller };
    }
    return undefined;
  }

  /** `client` went away: the upstream subscriptions nobody holds any more. */
  removeClient(client: C): Emptied[] {
    const emptied: Emptied[] = [];
    for (const uri of [...this.byUri.keys()]) {
      const gone = this.remove(client, uri);
      if (gone) emptied.push(gone);
    }
    return emptied;
  }

  /** The subscribers of `uri` on `caller`'s own connection (undefined: the shared one). */
  subscribers(uri: string, caller?: string): ReadonlySet<C> {
    return this.byUri.get(canonicalUri(uri))?.get(caller ?? SHARED)?.clients ?? new Set();
  }

  /** URIs subscribed on `server`'s shared connection (renewed when it reconnects). */
  urisOf(server: string): string[] {
    return [...this.byUri]
      .filter(([, byOwner]) => {
        const shared = byOwner.get(SHARED);
        return shared?.server === server && shared.clients.size > 0;
      })
      .map(([uri]) => uri);
  }

  private delete(uri: string, owner: string): void {
    const byOwner = this.byUri.get(uri);
    byOwner?.delete(owner);
    if (byOwner?.size === 0) this.byUri.delete(uri);
  }
}
