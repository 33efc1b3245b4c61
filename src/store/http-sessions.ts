// The shape of shared 2025 HTTP sessions as the store keeps them (the HTTP host's SharedSessions,
// restated here so the store needs no serving layer): a record per session, its SSE events.

export interface StoredSessionRecord {
  id: string;
  /** The client's initialize request (JSON-RPC), replayed by a replica that adopts the session. */
  initialize: unknown;
  /** The caller that opened the session (the serving layer's key), when callers are told apart. */
  owner?: string;
}

/** One session's resumable events: ids increase; a replay sends what followed an id on its stream. */
export interface StoredEventLog {
  storeEvent(streamId: string, message: unknown): Promise<string>;
  getStreamIdForEventId(eventId: string): Promise<string | undefined>;
  replayEventsAfter(lastEventId: string, sink: { send: (eventId: string, message: unknown) => Promise<void> }): Promise<string>;
  /** A replica let the session go; the shared events stay for the others. */
  clear(): void;
}

export interface SessionStore {
  save(record: StoredSessionRecord): Promise<void>;
  load(id: string): Promise<StoredSessionRecord | null>;
  touch(id: string): Promise<void>;
  delete(id: string): Promise<void>;
  expire(idleMs: number): Promise<void>;
  events(sessionId: string): StoredEventLog;
}
