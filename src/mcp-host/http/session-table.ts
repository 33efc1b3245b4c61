// The HTTP host's sessions in least-recently-used order, and the choice of which to close: past the
// session bound the least recently used one with no request in flight; after the idle timeout any
// with no open response at all.

export interface TableEntry {
  /** POST responses still open: requests in flight. */
  inFlight: number;
  /** Standalone GET streams open: a client listening, not a request. */
  listening: number;
  lastActive: number;
  /** Work in progress the host cannot see (a turn whose stream the client dropped). */
  busy(): boolean;
}

export class SessionTable<S extends TableEntry> {
  // A Map iterates in insertion order; touch() re-inserts, so the first entry is the least recently used.
  private readonly byId = new Map<string, S>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): S | undefined {
    return this.byId.get(id);
  }

  add(id: string, session: S): void {
    this.byId.set(id, session);
  }

  delete(id: string): boolean {
    return this.byId.delete(id);
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** The session was used now: it becomes the most recently used. */
  touch(id: string): void {
    const session = this.byId.get(id);
    if (!session) return;
    session.lastActive = Date.now();
    this.byId.delete(id);
    this.byId.set(id, session);
  }

  /**
   * The session to close to make room: the least recently used with no request in flight, preferring
   * one nobody listens to; undefined when every session has a request in flight.
   */
  evictable(): string | undefined {
    let listener: string | undefined;
    for (const [id, s] of this.byId) {
      if (s.inFlight > 0 || s.busy()) continue;
      if (s.listening === 0) return id;
      listener ??= id;
    }
    return listener;
  }

  /** Sessions with nothing open and no traffic for `timeoutMs`. */
  idle(now: number, timeoutMs: number): string[] {
    const out: string[] = [];
    for (const [id, s] of this.byId) {
      if (s.inFlight === 0 && s.listening === 0 && now - s.lastActive >= timeoutMs && !s.busy()) out.push(id);
    }
    return out;
  }
}
