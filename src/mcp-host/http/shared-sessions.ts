// 2025 sessions that outlive one replica: their records and SSE events in a store every replica of a
// cluster reads (the product injects one; PostgreSQL's lives in the store layer). A replica handed a
// session id it does not hold adopts it: it replays the session's initialize into a fresh server, so
// the client goes on without a new `initialize`.
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** What a replica needs to serve a session it did not open: the client's initialize request. */
export interface SharedSessionRecord {
  id: string;
  /** The initialize request as the client sent it (revision, capabilities, client info). */
  initialize: JSONRPCMessage;
  /** The caller that opened it (resource auth): other callers' tokens are refused on it everywhere. */
  owner?: string;
}

/** Sessions and their resumable SSE events, shared by every replica serving one endpoint. */
export interface SharedSessions {
  save(record: SharedSessionRecord): Promise<void>;
  load(id: string): Promise<SharedSessionRecord | null>;
  /** The session is in use (called at most every `touchEveryMs` per session and replica). */
  touch(id: string): Promise<void>;
  /** The client ended the session: its record and events go. */
  delete(id: string): Promise<void>;
  /** Forget sessions nobody used for `idleMs`, with their events. */
  expire(idleMs: number): Promise<void>;
  /** The session's event store for Last-Event-ID resumption, bounded per session. */
  events(sessionId: string): EventStore & { clear(): void };
}

export const SHARED_TOUCH_EVERY_MS = 30_000;

interface WebTransport {
  handleRequest(request: Request): Promise<Response>;
}

/**
 * Put a fresh transport and its server into the state the session's initialize left them in, by
 * replaying it (and `notifications/initialized`) in process; the answers go nowhere.
 */
export async function replayInitialize(transport: NodeStreamableHTTPServerTransport, record: SharedSessionRecord, protocolVersion: () => string | undefined): Promise<void> {
  // The Node transport wraps the SDK's web-standard one; the replay speaks to that directly.
  const web = (transport as unknown as { _webStandardTransport?: WebTransport })._webStandardTransport;
  if (!web) throw new Error('this MCP SDK version gives no way to restore a session; its client must initialize again');
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'localhost' };
  const init = await web.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(record.initialize) }));
  await init.text();
  if (init.status !== 200) throw new Error(`replaying the session's initialize failed (HTTP ${init.status})`);
  const version = protocolVersion();
  const note = await web.handleRequest(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': record.id, ...(version ? { 'mcp-protocol-version': version } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  await note.text();
}

/** Event ids of events kept only here while the shared store failed. */
const LOCAL_PREFIX = 'local-';

/**
 * The shared event store, falling back to this replica's memory when the shared one fails (the
 * database is down): streams keep working, and resume on this replica only, until it is back.
 */
export function withLocalFallback(shared: EventStore & { clear(): void }, local: EventStore & { clear(): void }, onFailure: (err: unknown) => void): EventStore & { clear(): void } {
  return {
    async storeEvent(streamId, message) {
      try {
        return await shared.storeEvent(streamId, message);
      } catch (err) {
        onFailure(err);
        return `${LOCAL_PREFIX}${await local.storeEvent(streamId, message)}`;
      }
    },
    async getStreamIdForEventId(eventId) {
      if (eventId.startsWith(LOCAL_PREFIX)) return local.getStreamIdForEventId?.(eventId.slice(LOCAL_PREFIX.length));
      return shared.getStreamIdForEventId?.(eventId);
    },
    async replayEventsAfter(lastEventId, sink) {
      if (!lastEventId.startsWith(LOCAL_PREFIX)) return shared.replayEventsAfter(lastEventId, sink);
      return local.replayEventsAfter(lastEventId.slice(LOCAL_PREFIX.length), { send: (id, message) => sink.send(`${LOCAL_PREFIX}${id}`, message) });
    },
    clear() {
      local.clear();
      shared.clear();
    },
  };
}
