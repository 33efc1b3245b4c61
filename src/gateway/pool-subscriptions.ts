// Resource subscriptions of every client of a gateway: per URI, the clients that subscribed and the
// server that serves it. The upstream is subscribed once, when the first client subscribes, and
// unsubscribed when the last one unsubscribes or goes away; updates reach subscribers only. A URI
// is kept in its canonical form, however a client or the server spells it.
import { canonicalUri } from '../mcp/index.js';

interface Entry<C> {
  server: string;
  clients: Set<C>;
  /** The upstream subscription, settled once the server has answered. */
  upstream: Promise<void>;
}

export class PoolSubscriptions<C> {
  private readonly byUri = new Map<string, Entry<C>>();

  /** `client` subscribes to `uri` on `server`; `subscribe` runs only for the first subscriber. */
  async add(client: C, spelled: string, server: string, subscribe: () => Promise<void>): Promise<void> {
    const uri = canonicalUri(spelled);
    let entry = this.byUri.get(uri);
    if (!entry || entry.server !== server) {
      const created: Entry<C> = { server, clients: new Set(), upstream: subscribe() };
      entry = created;
      this.byUri.set(uri, created);
      created.upstream.catch(() => {
        if (this.byUri.get(uri) === created && created.clients.size === 0) this.byUri.delete(uri);
      });
    }
    await entry.upstream;
    entry.clients.add(client);
  }

  /** The server to unsubscribe `uri` at when `client` was its last subscriber; undefined otherwise. */
  remove(client: C, spelled: string): string | undefined {
    const uri = canonicalUri(spelled);
    const entry = this.byUri.get(uri);
    if (!entry?.clients.delete(client) || entry.clients.size > 0) return undefined;
    this.byUri.delete(uri);
    return entry.server;
  }

  /** `client` went away: the (uri, server) pairs nobody subscribes to any more. */
  removeClient(client: C): { uri: string; server: string }[] {
    const emptied: { uri: string; server: string }[] = [];
    for (const uri of [...this.byUri.keys()]) {
      const server = this.remove(client, uri);
      if (server !== undefined) emptied.push({ uri, server });
    }
    return emptied;
  }

  subscribers(uri: string): ReadonlySet<C> {
    return this.byUri.get(canonicalUri(uri))?.clients ?? new Set();
  }

  /** URIs served by `server` that someone subscribes to (renewed when it reconnects). */
  urisOf(server: string): string[] {
    return [...this.byUri].filter(([, e]) => e.server === server && e.clients.size > 0).map(([uri]) => uri);
  }
}
