// One request on an open 2025 session: the product's own early refusals, a reused running request
// id, a protocol version header the client under-claims, the backlog of the first listen stream,
// then the session's SDK transport.
import type http from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { HttpSessionHandle } from './http-host-types.js';
import { sendJson } from './http-io.js';
import { STANDALONE_STREAM_ID, streamStartId } from './memory-event-store.js';
import type { RunningRequests } from './running-requests.js';
import type { NodeStreamableHTTPServerTransport } from './sse-at-once.js';

/** A session the host holds: its transport, its running requests, the product's handle, its events. */
export interface HostedSession {
  transport: NodeStreamableHTTPServerTransport;
  running: RunningRequests;
  handle: HttpSessionHandle;
  /** `holds`: the in-memory store only (a shared one cannot replay from a stream's start). */
  events: { clear(): void; holds?(streamId: string): boolean };
  /** When this replica last told the shared store the session is in use. */
  sharedTouch: number;
  inFlight: number;
  listening: number;
  listenedBefore?: boolean;
  lastActive: number;
  /** The caller that opened the session (resource auth); another caller's token is refused on it. */
  owner: string | undefined;
  busy(): boolean;
}

/** Serves `req` on `session`; `track` counts it as the session's activity once it is admitted. */
export async function serveOnSession(session: HostedSession, sessionId: string, req: http.IncomingMessage, res: http.ServerResponse, body: unknown, messages: JSONRPCMessage[], track: () => void): Promise<void> {
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
  if (req.method === 'GET' && req.headers['last-event-id'] !== undefined) session.running.resumed();
  else if (req.method === 'GET' && !session.listenedBefore) {
    // What was sent to the session before its client first listened (the SDK stores it but gives a
    // fresh GET nothing) is delivered on that first stream.
    session.listenedBefore = true;
    if (session.events.holds?.(STANDALONE_STREAM_ID)) req.headers['last-event-id'] = streamStartId(STANDALONE_STREAM_ID);
  }
  track();
  await session.transport.handleRequest(req, res, body);
}

/** Frees the request ids `res` claimed when it closes (a function of its own: a closure in the host's openNew would keep the initialize response alive with the session). */
export function releaseOnClose(running: RunningRequests, res: http.ServerResponse): void {
  res.on('close', () => running.release(res));
}
