// Hosts an MCP server over Streamable HTTP: binding, bearer auth, Host/Origin checks, one SDK
// transport (with SSE resumption) per session, a refusal for reused running request ids, and bounds
// on sessions (least recently used idle one closed past it), body size and idle time.
// Server-agnostic: the caller opens one MCP server per session on the transport it is handed.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type JSONRPCErrorResponse, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { bearerMatches, createHostOriginCheck, errorMessage, JSON_RPC_ERRORS, jsonRpcError, listenUrl, type ListenAddress, type Logger } from '../../util/index.js';
import { checkAuthConfig } from './http-security.js';
import { readJsonBody, sendJson } from './http-io.js';
import type { ModernLeg } from './modern-leg.js';
import { DEFAULT_EVENT_STORE_BYTES, DEFAULT_EVENT_STORE_LIMIT, EventBudget, MemoryEventStore } from './memory-event-store.js';
import { RunningRequests } from './running-requests.js';
import { SessionTable } from './session-table.js';

export interface HttpSessionHandle {
  /** An answer for a message the transport must not see (e.g. a request id still running), or null. */
  refusal?(message: JSONRPCMessage): JSONRPCErrorResponse | null;
  /** Work in progress: a busy session never expires. */
  busy?(): boolean;
  /**
   * The protocol version negotiated at initialize. It outranks an older MCP-Protocol-Version header
   * on later requests of the session (the conformance suite's SSE probe sends 2025-03-26 inside a
   * 2025-11-25 session; the SDK primes resumable streams only from 2025-11-25 on).
   */
  protocolVersion?(): string | undefined;
  close(): Promise<void>;
}

export interface HttpHostOptions {
  listen: ListenAddress;
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /** Bearer token every request must carry; null only with `insecureNoAuth` on loopback. */
  token: string | null;
  insecureNoAuth?: boolean;
  /** Extra hostnames accepted in Host (on loopback) and Origin (names that front the server). */
  allowedHosts?: readonly string[];
  /**
   * Sessions held at once. Past it, opening one closes the least recently used session with no
   * request in flight (its next request gets 404, so its client re-initializes); only when every
   * session has one in flight is a new client refused (503).
   */
  maxSessions?: number;
  /** A session with no open request and no traffic for this long is closed. */
  idleTimeoutMs?: number;
  maxBodyBytes?: number;
  /** Messages kept per session for Last-Event-ID resumption. */
  eventStoreLimit?: number;
  /** Serialized bytes of those messages kept per session (the newest is always kept). */
  eventStoreBytes?: number;
  /** Serialized bytes of events kept by all sessions together (the oldest of any session go first). */
  eventBudgetBytes?: number;
  /** SSE `retry:` hint for clients that reconnect. */
  retryIntervalMs?: number;
  logger: Logger;
  /** Serves 2026-07-28 requests (the rest go to the sessions); without it the endpoint is 2025-only. */
  modern?: ModernLeg;
  /** Connect an MCP server to a new session's transport (a decorator over the SDK's). */
  openSession(transport: Transport): Promise<HttpSessionHandle>;
}

/**
 * maxSessions is a memory bound: a session here holds only its protocol state (about 40 KiB of RSS
 * for mcp-server, see docs/agent-server.md) and its share of the shared event budget, so 10,000 cost
 * some hundred MiB at most. Products whose sessions cost more (processes) pass a lower one.
 */
export const HTTP_DEFAULTS = { path: '/mcp', maxSessions: 10_000, idleTimeoutMs: 30 * 60_000, maxBodyBytes: 4 * 1024 * 1024 };

export interface HttpHost {
  /** `http://host:port/path` as clients should use it. */
  url: string;
  port: number;
  readonly sessionCount: number;
  close(): Promise<void>;
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  running: RunningRequests;
  handle: HttpSessionHandle;
  events: MemoryEventStore;
  inFlight: number;
  listening: number;
  lastActive: number;
  busy(): boolean;
}

export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  checkAuthConfig(options.listen, options.token, options.insecureNoAuth === true);
  const path = options.path ?? HTTP_DEFAULTS.path;
  const maxSessions = options.maxSessions ?? HTTP_DEFAULTS.maxSessions;
  const idleTimeoutMs = options.idleTimeoutMs ?? HTTP_DEFAULTS.idleTimeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes;
  const browserCheck = createHostOriginCheck(options.listen.host, options.allowedHosts);
  const sessions = new SessionTable<Session>();
  const budget = new EventBudget(options.eventBudgetBytes);
  const log = options.logger;
  let opening = 0;

  const closeSession = async (id: string, why: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    session.events.clear();
    log.info('mcp http session closed', { session: id, why });
    await session.handle.close().catch((err: unknown) => log.warn('closing a session failed', { error: errorMessage(err) }));
  };

  const track = (id: string, session: Session, req: http.IncomingMessage, res: http.ServerResponse) => {
    const kind = req.method === 'GET' ? 'listening' : 'inFlight';
    session[kind] += 1;
    sessions.touch(id);
    res.on('close', () => {
      session[kind] -= 1;
      sessions.touch(id);
    });
  };

  /** Room for one more session: true, or false once the refusal has been sent. */
  const makeRoom = (res: http.ServerResponse, initId: JSONRPCMessage): boolean => {
    while (sessions.size + opening >= maxSessions) {
      const lru = sessions.evictable();
      if (lru === undefined) {
        const id = 'id' in initId ? initId.id : null;
        const message = `Too many sessions: all ${maxSessions} sessions this server holds (--max-sessions) have a request in flight. Retry when one finishes.`;
        sendJson(res, 503, jsonRpcError(id ?? null, -32000, message), { 'Retry-After': '5' });
        return false;
      }
      void closeSession(lru, `least recently used, closed to make room (--max-sessions ${maxSessions})`);
    }
    return true;
  };

  const openNew = async (req: http.IncomingMessage, res: http.ServerResponse, body: unknown, messages: JSONRPCMessage[], initId: JSONRPCMessage) => {
    if (!makeRoom(res, initId)) return;
    opening += 1;
    let handle: HttpSessionHandle | undefined;
    // The transport keeps its callbacks for the session's life: they must not pin this request.
    let initRequest: { req: http.IncomingMessage; res: http.ServerResponse } | null = { req, res };
    const events = new MemoryEventStore(options.eventStoreLimit ?? DEFAULT_EVENT_STORE_LIMIT, options.eventStoreBytes ?? DEFAULT_EVENT_STORE_BYTES, budget);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: events,
      ...(options.retryIntervalMs !== undefined ? { retryInterval: options.retryIntervalMs } : {}),
      onsessioninitialized: (id) => {
        const h = handle!;
        const session: Session = { transport, running, handle: h, events, inFlight: 0, listening: 0, lastActive: Date.now(), busy: () => h.busy?.() === true };
        sessions.add(id, session);
        if (initRequest) track(id, session, initRequest.req, initRequest.res);
        log.info('mcp http session opened', { session: id });
      },
      onsessionclosed: (id) => void closeSession(id, 'deleted by the client'),
    });
    const running = new RunningRequests(transport);
    try {
      handle = await options.openSession(running);
      // The initialize request's id is claimed like any other (its response frees it).
      running.claim(messages, res);
      releaseOnClose(running, res);
      await transport.handleRequest(req, res, body);
    } finally {
      opening -= 1;
      initRequest = null;
    }
    if (transport.sessionId === undefined) {
      events.clear();
      await handle.close();
    }
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return sendJson(res, 404, jsonRpcError(null, -32000, `Not found: the MCP endpoint is ${path}`));
    const refused = browserCheck(req.headers.host, req.headers.origin);
    if (refused !== null) return sendJson(res, 403, jsonRpcError(null, -32000, `Forbidden: ${refused}`));
    if (options.token !== null && !bearerMatches(req.headers.authorization, options.token)) {
      return sendJson(res, 401, jsonRpcError(null, -32000, 'Unauthorized: send "Authorization: Bearer <token>" with the server\'s token'), {
        'WWW-Authenticate': 'Bearer realm="switchboard"',
      });
    }
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    let body: unknown;
    let messages: JSONRPCMessage[] = [];
    if (req.method === 'POST') {
      const read = await readJsonBody(req, res, maxBodyBytes);
      if (!read) return;
      body = read.body;
      messages = read.messages;
      if (sessionId === undefined && options.modern && (await options.modern.claims(req, body))) return options.modern.serve(req, res, body);
    } else if (req.method !== 'GET' && req.method !== 'DELETE') {
      return sendJson(res, 405, jsonRpcError(null, -32000, 'Method not allowed.'), { Allow: 'GET, POST, DELETE' });
    }
    if (sessionId === undefined) {
      const init = messages.find((m) => isInitializeRequest(m));
      if (req.method === 'POST' && init) return openNew(req, res, body, messages, init);
      return sendJson(res, 400, jsonRpcError(null, -32000, 'Bad Request: Mcp-Session-Id header is required'));
    }
    const session = sessions.get(sessionId);
    if (!session) return sendJson(res, 404, jsonRpcError(null, -32001, 'Session not found'));
    // A JSON-RPC error in a JSON response: clients treat it as the request's answer.
    for (const m of messages) {
      const refusal = session.handle.refusal?.(m);
      if (refusal) return sendJson(res, 200, refusal, { 'mcp-session-id': sessionId });
    }
    const reused = session.running.claim(messages, res);
    if (reused) return sendJson(res, 200, reused, { 'mcp-session-id': sessionId });
    releaseOnClose(session.running, res);
    const negotiated = session.handle.protocolVersion?.();
    const claimed = req.headers['mcp-protocol-version'];
    if (negotiated !== undefined && typeof claimed === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(claimed) && claimed < negotiated) req.headers['mcp-protocol-version'] = negotiated;
    track(sessionId, session, req, res);
    await session.transport.handleRequest(req, res, body);
  };

  const server = http.createServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      log.error('http request failed', { error: errorMessage(err) });
      if (!res.headersSent) sendJson(res, 500, jsonRpcError(null, JSON_RPC_ERRORS.internalError, 'Internal error'));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen.port, options.listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const sweep = setInterval(
    () => {
      for (const id of sessions.idle(Date.now(), idleTimeoutMs)) void closeSession(id, 'idle');
    },
    Math.max(1000, Math.min(idleTimeoutMs / 2, 60_000)),
  );
  sweep.unref();

  return {
    url: listenUrl('http', options.listen.host, port, path),
    port,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweep);
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...sessions.ids().map((id) => closeSession(id, 'server shutting down')), options.modern?.close()]);
      server.closeAllConnections();
      await closing;
    },
  };
}

/** Outside openNew's scope on purpose: a closure there would keep the initialize response alive with the session. */
function releaseOnClose(running: RunningRequests, res: http.ServerResponse): void {
  res.on('close', () => running.release(res));
}

/** What a product passes to serve on Streamable HTTP: the host's options less the session factory and logger it supplies. */
export type HttpServeOptions = Omit<HttpHostOptions, 'openSession' | 'logger'>;

/** `host`, whose close() then runs `after` (the product's own shutdown), even when closing the host failed. */
export function closingAlso(host: HttpHost, after: () => Promise<void>): HttpHost {
  return {
    url: host.url,
    port: host.port,
    get sessionCount() {
      return host.sessionCount;
    },
    async close() {
      try {
        await host.close();
      } finally {
        await after();
      }
    },
  };
}
