// The HTTP host's sessions in least-recently-used order, and the choice of which to close: past the
// session bound, a caller makes room first among its own sessions, and only the caller holding the
// most sessions ever gives one up to another (so no caller can evict or lock out the others); after
// the idle timeout any session with no open response at all.

export interface TableEntry {
  /** The caller that opened it (undefined: the one caller of an endpoint without OAuth). */
  readonly owner: string | undefined;
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
   * Which session closes so that `owner` may open one: one of its own while it holds as many as anyone
   * (an idle one; none of them idle: undefined, and it is refused), else one of the caller holding
   * the most (an idle one if it has one, else its least recently used: that caller's surplus gives
   * way, not the newcomer).
   */
  roomFor(owner: string | undefined): string | undefined {
    const counts = new Map<string | undefined, number>();
    for (const s of this.byId.values()) counts.set(s.owner, (counts.get(s.owner) ?? 0) + 1);
    const mine = counts.get(owner) ?? 0;
    let heaviest: string | undefined;
    let most = -1;
    for (const [o, n] of counts) {
      if (n > most) {
        heaviest = o;
        most = n;
      }
    }
    if (mine >= most) return this.lru((s) => s.owner === owner, false);
    return this.lru((s) => s.owner === heaviest, false) ?? this.lru((s) => s.owner === heaviest, true);
  }

  /** The least recently used session `which` picks, idle ones first (one nobody listens to first); busy ones too when `evenBusy`. */
  private lru(which: (s: S) => boolean, evenBusy: boolean): string | undefined {
    let listener: string | undefined;
    for (const [id, s] of this.byId) {
      if (!which(s)) continue;
      if (evenBusy) return id;
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
