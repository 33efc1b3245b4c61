// The audit trail: one JSONL record per request an MCP server served (time, caller, method, tool,
// upstream, outcome, duration; never arguments or results), written by a transport decorator that
// sees each request go in and its answer come out, to a rotating file under $SWITCHBOARD_HOME.
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import path from 'node:path';
import { createLineFile, DEFAULT_LOG_ROTATION, type LogRotation } from '../../util/index.js';
import { callerOf, type Caller } from './caller.js';
import { requestKey } from '../rpc/request-guard.js';
import { requestSubject } from '../rpc/request-subject.js';
import { connectingThrough, hear, TransportDecorator } from '../rpc/transport-decorator.js';

export interface AuditRecord {
  time: string;
  /** The token's `sub`; null for the static token. */
  subject: string | null;
  client_id: string | null;
  method: string;
  /** The tool, prompt or resource the request names (tools/call, prompts/get, resources/read, ...). */
  tool?: string;
  /** The upstream server that served it (the gateway). */
  upstream?: string;
  /**
   * Whose identity reached that upstream: `operator`, or the caller's own (`token_exchange`,
   * `identity_assertion`, `caller_login`); the caller is the record's subject. Never a token.
   */
  identity?: string;
  /**
   * `ok`, `tool_error` (an isError result), `error` (JSON-RPC error, with `error_code`), `cancelled`,
   * `abandoned`, `refused_state` (request state not the caller's, altered or expired), or a refusal
   * at the door: `unauthorized` (401), `forbidden` (403), `refused_session` (another caller's
   * session), `rate_limited`, `too_many_calls`.
   */
  outcome: string;
  error_code?: number;
  duration_ms: number;
  session?: string;
}

export interface AuditSink {
  record(record: AuditRecord): void;
}

/** `$SWITCHBOARD_HOME/log/audit.jsonl` and its rotations (`audit.jsonl.1`, ...). */
export function auditFilePath(home: string): string {
  return path.join(home, 'log', 'audit.jsonl');
}

export function fileAuditSink(file: string, rotation: LogRotation = DEFAULT_LOG_ROTATION): AuditSink & { flush(): Promise<void> } {
  const out = createLineFile(file, rotation);
  return { record: (r) => out.write(JSON.stringify(r)), flush: () => out.flush() };
}

/** What only the product knows about a request: the upstream a name routes to, and the real tool behind a tool that calls others. */
export type AuditDescriber = (request: JSONRPCRequest, caller: Caller | undefined) => { tool?: string; upstream?: string; identity?: string } | undefined;


interface Pending {
  started: number;
  request: JSONRPCRequest;
  caller: Caller | undefined;
  record: Omit<AuditRecord, 'outcome' | 'duration_ms' | 'tool' | 'upstream' | 'identity'>;
}

/**
 * A per-request server (2026-07-28: the SDK's serving entry connects each to a transport of its own)
 * whose transport is audited like a session's.
 */
export function auditedServer<S extends { connect(transport: Transport): Promise<void> }>(server: S, sink: AuditSink, describe?: AuditDescriber): S {
  return connectingThrough(server, (transport) => new AuditedTransport(transport, sink, describe));
}

/** A decorator over a session's transport (the server is connected to it) that records every request once. */
export class AuditedTransport extends TransportDecorator {
  private readonly pending = new Map<string, Pending>();

  constructor(
    inner: Transport,
    private readonly sink: AuditSink,
    private readonly describe?: AuditDescriber,
  ) {
    super(inner);
  }

  async start(): Promise<void> {
    hear(this.inner, {
      onclose: () => {
        for (const key of [...this.pending.keys()]) this.finish(key, 'abandoned');
        this.onclose?.();
      },
      onerror: (err) => this.onerror?.(err),
      onmessage: (message, extra) => {
        if (isJSONRPCRequest(message)) this.begin(message, callerOf(extra?.authInfo));
        else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
          const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
          if (typeof id === 'string' || typeof id === 'number') this.finish(requestKey(id), 'cancelled');
        }
        this.onmessage?.(message, extra);
      },
    });
    await this.inner.start();
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCResultResponse(message) && message.id !== undefined) {
      const isError = (message.result as { isError?: unknown }).isError === true;
      this.finish(requestKey(message.id), isError ? 'tool_error' : 'ok');
    } else if (isJSONRPCErrorResponse(message) && message.id !== undefined) {
      // Request state that was not this caller's (or was altered, or expired): a refusal, recorded as one.
      const replayed = (message.error.data as { reason?: unknown } | undefined)?.reason === 'invalid_request_state';
      this.finish(requestKey(message.id), replayed ? 'refused_state' : 'error', message.error.code);
    }
    return this.inner.send(message, options);
  }


  private begin(request: JSONRPCRequest, caller: Caller | undefined): void {
    this.pending.set(requestKey(request.id), {
      started: performance.now(),
      request,
      caller,
      record: {
        time: new Date().toISOString(),
        subject: caller?.subject ?? null,
        client_id: caller?.clientId ?? null,
        method: request.method,
        ...(this.sessionId !== undefined ? { session: this.sessionId } : {}),
      },
    });
  }

  /** The tool and upstream, asked of the product when the request ends (by then it has routed the name). */
  private described(p: Pending): { tool?: string; upstream?: string; identity?: string } {
    let tool = requestSubject(p.request.params);
    let upstream: string | undefined;
    let identity: string | undefined;
    try {
      const described = this.describe?.(p.request, p.caller);
      upstream = described?.upstream;
      identity = described?.identity;
      if (described?.tool !== undefined) tool = described.tool.slice(0, 512);
    } catch {
      // the record goes out without it
    }
    return { ...(tool !== undefined ? { tool } : {}), ...(upstream !== undefined ? { upstream } : {}), ...(identity !== undefined ? { identity } : {}) };
  }

  private finish(key: string, outcome: string, errorCode?: number): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    const duration = Math.round((performance.now() - p.started) * 1000) / 1000;
    this.sink.record({ ...p.record, ...this.described(p), outcome, ...(errorCode !== undefined ? { error_code: errorCode } : {}), duration_ms: duration });
  }
}
