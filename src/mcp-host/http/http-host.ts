// Hosts an MCP server over Streamable HTTP: binding, bearer auth (or OAuth, per-caller limits and
// sessions bound to their caller through resource-auth.ts), Host/Origin checks, one SDK transport
// (with SSE resumption) per session, a refusal for reused running request ids, and bounds on
// sessions (least recently used idle one closed past it), body size and idle time.
// Server-agnostic: the caller opens one MCP server per session on the transport it is handed.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest, type AuthInfo, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { bearerMatches, createHostOriginCheck, errorMessage, JSON_RPC_ERRORS, jsonRpcError, listenUrl } from '../../util/index.js';
import { HTTP_DEFAULTS, type HttpHost, type HttpHostOptions, type HttpSessionHandle } from './http-host-types.js';
import { internalOrigin } from './retry-forward.js';
import { observedTransport } from '../rpc/observed-transport.js';
import { checkAuthConfig } from './http-security.js';
import { readJsonBody, sendJson } from './http-io.js';
import { releaseWhenIdle } from './idle-memory.js';
import { DEFAULT_EVENT_STORE_BYTES, DEFAULT_EVENT_STORE_LIMIT, EventBudget, MemoryEventStore } from './memory-event-store.js';
import { RunningRequests } from './running-requests.js';
import { releaseOnClose, serveOnSession, type HostedSession as Session } from './session-request.js';
import { SessionTable } from './session-table.js';
import { sseTransport, type NodeStreamableHTTPServerTransport } from './sse-at-once.js';
import { replayInitialize, SHARED_TOUCH_EVERY_MS, withLocalFallback } from './shared-sessions.js';

export { closingAlso, HTTP_DEFAULTS, type HttpHost, type HttpHostOptions, type HttpServeOptions, type HttpSessionHandle } from './http-host-types.js';

/** How long a client may take to send one whole request (headers and body). */
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * How long an idle keep-alive connection stays open. Longer than clients keep theirs (undici: 4 s,
 * proxies: up to 60 s), so the client closes first: with Node's 5 s a loaded client could send a
 * request on a connection the server was closing at that moment, and get ECONNRESET.
 */
const KEEP_ALIVE_MS = 65_000;

export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  checkAuthConfig(options.listen, options.token, options.insecureNoAuth === true, options.auth?.acceptsOAuth === true);
  const path = options.path ?? HTTP_DEFAULTS.path;
  const maxSessions = options.maxSessions ?? HTTP_DEFAULTS.maxSessions;
  const idleTimeoutMs = options.idleTimeoutMs ?? HTTP_DEFAULTS.idleTimeoutMs;
  const maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes;
  const browserCheck = createHostOriginCheck(options.listen.host, options.allowedHosts);
  const sessions = new SessionTable<Session>();
  const budget = new EventBudget(options.eventBudgetBytes);
  const log = options.logger;
  let opening = 0;
  if (options.ops) options.modern?.observedBy(options.ops.telemetry, options.currentSpan);
  options.ops?.setClients(() =>
    sessions.ids().map((id) => {
      const s = sessions.get(id)!;
      return { session: id, protocol: s.handle.protocolVersion?.(), inFlight: s.inFlight, streams: s.listening, idleMs: Date.now() - s.lastActive };
    }),
  );

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

  /** Room for one more session of `owner` (its own first; never at the cost of a caller holding fewer): true, or false once the refusal has been sent. */
  const makeRoom = (res: http.ServerResponse, initId: JSONRPCMessage, owner: string | undefined): boolean => {
    while (sessions.size + opening >= maxSessions) {
      const victim = sessions.roomFor(owner);
      if (victim === undefined) {
        const id = 'id' in initId ? initId.id : null;
        const message = `Too many sessions: this caller's sessions on this server (--max-sessions ${maxSessions} in all) all have a request in flight. Retry when one finishes.`;
        sendJson(res, 503, jsonRpcError(id ?? null, -32000, message), { 'Retry-After': '5' });
        return false;
      }
      void closeSession(victim, `closed to make room (--max-sessions ${maxSessions}): its caller holds the most sessions`);
    }
    return true;
  };

  const shared = options.sharedSessions;
  const memoryEvents = (owner: string | undefined) => new MemoryEventStore(options.eventStoreLimit ?? DEFAULT_EVENT_STORE_LIMIT, options.eventStoreBytes ?? DEFAULT_EVENT_STORE_BYTES, budget, owner);
  const eventsFor = (id: string, owner: string | undefined) =>
    shared
      ? withLocalFallback(shared.events(id), memoryEvents(owner), (err) => log.warn('could not keep an SSE event in the shared store; it is kept on this replica only', { session: id, error: errorMessage(err) }))
      : memoryEvents(owner);

  /** A transport for session `id` and the product's server on it; `opened` runs when the transport initializes. */
  const newSession = async (id: string, owner: string | undefined, opened: (session: Session) => Promise<void> | void) => {
    const events = eventsFor(id, owner);
    const transport: NodeStreamableHTTPServerTransport = sseTransport({
      sessionIdGenerator: () => id,
      eventStore: events,
      ...(options.retryIntervalMs !== undefined ? { retryInterval: options.retryIntervalMs } : {}),
      onsessioninitialized: async () => {
        // Called on initialize, long after openSession below has answered: `handle` is set by then.
        const h = handle;
        const session: Session = { transport, running, handle: h, events, sharedTouch: Date.now(), inFlight: 0, listening: 0, lastActive: Date.now(), owner, busy: () => h.busy?.() === true };
        sessions.add(id, session);
        await opened(session);
      },
      onsessionclosed: (closed) => {
        void closeSession(closed, 'deleted by the client');
        void shared?.delete(closed).catch((err: unknown) => log.warn('could not delete a shared session', { session: closed, error: errorMessage(err) }));
      },
    }, (message) => log.warn(message));
    const running = new RunningRequests(transport);
    const observed = options.ops ? observedTransport(running, options.ops.telemetry, { transport: 'tcp', protocolVersion: () => handle.protocolVersion?.(), currentSpan: options.currentSpan }) : running;
    const handle: HttpSessionHandle = await options.openSession(observed);
    return { transport, running, handle, events };
  };

  const openNew = async (req: http.IncomingMessage, res: http.ServerResponse, body: unknown, messages: JSONRPCMessage[], initId: JSONRPCMessage, owner: string | undefined) => {
    if (!makeRoom(res, initId, owner)) return;
    opening += 1;
    // The transport keeps its callbacks for the session's life: they must not pin this request.
    let initRequest: { req: http.IncomingMessage; res: http.ServerResponse } | null = { req, res };
    let created: Awaited<ReturnType<typeof newSession>> | undefined;
    try {
      created = await newSession(randomUUID(), owner, async (session) => {
        const id = session.transport.sessionId!;
        if (initRequest) track(id, session, initRequest.req, initRequest.res);
        log.info('mcp http session opened', { session: id });
        // Stored before the client learns the id, so its next request may land on any replica.
        await shared?.save({ id, initialize: initId, ...(owner !== undefined ? { owner } : {}) }).catch((err: unknown) => log.warn('could not share a new session; only this replica can serve it', { session: id, error: errorMessage(err) }));
      });
      // The initialize request's id is claimed like any other (its response frees it).
      created.running.claim(messages, res);
      releaseOnClose(created.running, res);
      await created.transport.handleRequest(req, res, body);
    } finally {
      opening -= 1;
      initRequest = null;
    }
    if (created.transport.sessionId === undefined) {
      created.events.clear();
      await created.handle.close();
    }
  };

  const adopting = new Map<string, Promise<Session | undefined>>();
  /** A session another replica opened: rebuilt here from its shared record, or undefined when there is none. */
  const adopt = (id: string): Promise<Session | undefined> => {
    const pending = adopting.get(id);
    if (pending) return pending;
    const work = (async () => {
      const record = await shared!.load(id);
      if (!record) return undefined;
      while (sessions.size >= maxSessions) {
        const victim = sessions.roomFor(record.owner);
        if (victim === undefined) break;
        await closeSession(victim, `closed to make room (--max-sessions ${maxSessions}): its caller holds the most sessions`);
      }
      const created = await newSession(id, record.owner, () => log.info('mcp http session adopted from the shared store', { session: id }));
      try {
        await replayInitialize(created.transport, record, () => created.handle.protocolVersion?.());
      } catch (err) {
        sessions.delete(id);
        await created.handle.close().catch(() => {});
        throw err;
      }
      return sessions.get(id);
    })().finally(() => adopting.delete(id));
    adopting.set(id, work);
    return work;
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (options.auth?.serveMetadata(req, res, url, path)) return;
    // The token rules of the endpoint: the static token (OAuth tokens do not open the operator's views).
    const authorized = () => (options.token === null ? !options.auth : bearerMatches(req.headers.authorization, options.token));
    const guard = () => ({ refused: browserCheck(req.headers.host, req.headers.origin), authorized: authorized() });
    if (url.pathname !== path && options.ops && (await options.ops.serve(req, res, url.pathname, guard()))) return;
    if (url.pathname.startsWith(`${path}/`) && options.routes) {
      const refusedPage = browserCheck(req.headers.host, req.headers.origin);
      if (refusedPage !== null) return sendJson(res, 403, jsonRpcError(null, -32000, `Forbidden: ${refusedPage}`));
      if (await options.routes(req, res, url, path)) return;
    }
    if (url.pathname !== path) return sendJson(res, 404, jsonRpcError(null, -32000, `Not found: the MCP endpoint is ${path}`));
    const refused = browserCheck(req.headers.host, req.headers.origin);
    if (refused !== null) return sendJson(res, 403, jsonRpcError(null, -32000, `Forbidden: ${refused}`));
    const caller = options.auth ? await options.auth.authenticate(req, res, path, options.describe) : undefined;
    if (caller === null) return;
    if (!options.auth && options.token !== null && !bearerMatches(req.headers.authorization, options.token)) {
      return sendJson(res, 401, jsonRpcError(null, -32000, 'Unauthorized: send "Authorization: Bearer <token>" with the server\'s token'), {
        'WWW-Authenticate': 'Bearer realm="switchboard"',
      });
    }
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    let body: unknown;
    let messages: JSONRPCMessage[] = [];
    if (req.method === 'POST') {
      if (caller && !(await options.auth!.admitBody(caller, req, res, options.describe))) return;
      const read = await readJsonBody(req, res, maxBodyBytes);
      if (!read) return;
      body = read.body;
      messages = read.messages;
    } else if (req.method !== 'GET' && req.method !== 'DELETE') {
      return sendJson(res, 405, jsonRpcError(null, -32000, 'Method not allowed.'), { Allow: 'GET, POST, DELETE' });
    }
    if (caller) {
      const slot = await options.auth!.admit(caller, messages, res, options.describe);
      if (slot === false) return;
      (req as http.IncomingMessage & { auth?: AuthInfo }).auth = options.auth!.authInfo(caller, slot);
    }
    // 2026-07-28 requests carry no session: after auth and limits (the SDK hands req.auth to the handlers).
    if (req.method === 'POST' && sessionId === undefined && options.modern && (await options.modern.claims(req, body))) return options.modern.serve(req, res, body);
    if (sessionId === undefined) {
      const init = messages.find((m) => isInitializeRequest(m));
      if (req.method === 'POST' && init) return openNew(req, res, body, messages, init, caller?.key);
      return sendJson(res, 400, jsonRpcError(null, -32000, 'Bad Request: Mcp-Session-Id header is required'));
    }
    let session: Session | undefined;
    try {
      session = sessions.get(sessionId) ?? (shared ? await adopt(sessionId) : undefined);
    } catch (err) {
      // The shared store is down: the session may well exist, so not 404 (its client would re-initialize).
      return sendJson(res, 503, jsonRpcError(null, -32000, `Service unavailable: cannot restore this session here: ${errorMessage(err)}`), { 'Retry-After': '5' });
    }
    // Another caller's session is answered as if it did not exist: a session id grants nothing.
    if (!session || session.owner !== caller?.key) {
      if (session) options.auth?.refusedSession(caller, messages, req, sessionId, options.describe);
      return sendJson(res, 404, jsonRpcError(null, -32001, 'Session not found'));
    }
    if (shared && Date.now() - session.sharedTouch >= SHARED_TOUCH_EVERY_MS) {
      session.sharedTouch = Date.now();
      void shared.touch(sessionId).catch((err: unknown) => log.warn('could not mark a shared session as used', { session: sessionId, error: errorMessage(err) }));
    }
    await serveOnSession(session, sessionId, req, res, body, messages, () => track(sessionId, session, req, res));
  };

  const idle = options.releaseIdleMemoryAfterMs ? releaseWhenIdle(log, options.releaseIdleMemoryAfterMs) : undefined;
  // A request (headers and body) must arrive within this: a slow body cannot hold a connection for long.
  const server = http.createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_MS }, (req, res) => {
    idle?.seen();
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
  options.modern?.listeningAt(internalOrigin(options.listen.host, port));

  const sweep = setInterval(
    () => {
      for (const id of sessions.idle(Date.now(), idleTimeoutMs)) void closeSession(id, 'idle');
      void shared?.expire(idleTimeoutMs).catch((err: unknown) => log.warn('could not expire idle shared sessions', { error: errorMessage(err) }));
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
      idle?.stop();
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...sessions.ids().map((id) => closeSession(id, 'server shutting down')), options.modern?.close()]);
      server.closeAllConnections();
      await closing;
    },
  };
}
