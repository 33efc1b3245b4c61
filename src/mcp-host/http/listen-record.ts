// A 2026-07-28 `subscriptions/listen` stream is served by the SDK's listen router, never by a server
// connected to a transport: the audit trail and the server spans, which decorate such transports,
// would not see it. This records it the same way: a server span and one audit record, from the
// request to the stream's end (the client going away, or the server closing).
import type http from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from '../../protocol/values.js';
import { mcpSpan, type Telemetry } from '../../util/telemetry/index.js';
import type { AuditSink } from '../access/audit-trail.js';
import { callerOf } from '../access/caller.js';

export interface ListenObservers {
  telemetry?: Telemetry;
  audit?: AuditSink;
}

/** Record the listen request `message` (parsed) until `res` closes. */
export function recordListen(observers: ListenObservers, message: { id?: unknown; params?: Record<string, unknown> }, auth: AuthInfo | undefined, req: http.IncomingMessage, res: http.ServerResponse): void {
  const { telemetry, audit } = observers;
  const params = message.params;
  const meta = params?._meta as { traceparent?: unknown; tracestate?: unknown } | undefined;
  const header = typeof req.headers.traceparent === 'string' ? { traceparent: req.headers.traceparent } : undefined;
  const parent = typeof meta?.traceparent === 'string' ? (meta as { traceparent: string; tracestate?: string }) : header;
  const requestId = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  const span = telemetry?.active
    ? telemetry.start(mcpSpan({ kind: 'server', method: 'subscriptions/listen', params, ...(requestId !== undefined ? { requestId } : {}), protocolVersion: MODERN_REVISION, transport: 'tcp', ...(parent ? { parent } : {}) }))
    : undefined;
  const caller = callerOf(auth);
  const started = performance.now();
  const time = new Date().toISOString();
  res.once('close', () => {
    // A stream the router refused is answered at once with an error status; an accepted one ends when its client goes.
    const refused = res.statusCode >= 400;
    if (span) {
      if (refused) span.fail(String(res.statusCode));
      span.end();
    }
    audit?.record({
      time,
      subject: caller?.subject ?? null,
      client_id: caller?.clientId ?? null,
      method: 'subscriptions/listen',
      outcome: refused ? 'error' : 'ok',
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    });
  });
}
