// Which request ids of one HTTP session are still unanswered, so a request reusing one is refused:
// the SDK transport routes a response by id alone, and a second POST with a running id would take
// over the first one's stream, leaving the first client waiting forever. Also which running requests
// their client abandoned (the stream closed before the answer and was never resumed), so they are
// cancelled rather than left running for no one.
import {
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { JSON_RPC_ERRORS, jsonRpcError } from '../../util/index.js';
import { isErrorResponse, isNotification, isRequest, isResult } from '../rpc/message-kind.js';
import { requestKey as keyOf } from '../rpc/request-guard.js';
import { hear, TransportDecorator } from '../rpc/transport-decorator.js';

export const REQUEST_ID_IN_USE = 'Invalid Request: a request with this id is still running in this session; use a new id';

/** The POST that claimed an id: its claim lapses with its response unless the server took the request. */
export type Claimant = object;

/**
 * How long a running request whose response stream closed waits for its client to resume the stream
 * (GET with Last-Event-ID; clients retry after the announced `retry:`, 1 s) before it counts as
 * abandoned and is cancelled, as if the client had sent notifications/cancelled.
 */
export const ABANDONED_REQUEST_GRACE_MS = 10_000;

/**
 * A decorator over the session's transport (the server is connected to it). An id is claimed when a
 * POST carrying it is admitted, taken when the transport hands the request to the server, and freed
 * by the server's response or the client's `notifications/cancelled` (after which no response comes).
 */
export class RunningRequests extends TransportDecorator {
  private readonly claims = new Map<string, { by: Claimant; taken: boolean; id: RequestId }>();
  /** Requests whose stream closed unanswered, each cancelled when its timer fires. */
  private readonly abandoned = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    inner: Transport,
    private readonly graceMs = ABANDONED_REQUEST_GRACE_MS,
  ) {
    super(inner);
  }

  async start(): Promise<void> {
    hear(this.inner, {
      onclose: () => this.onclose?.(),
      onerror: (err) => this.onerror?.(err),
      onmessage: (message, extra) => {
        if (isRequest(message)) {
          const claim = this.claims.get(keyOf(message.id));
          if (claim) claim.taken = true;
        } else if (isNotification(message) && message.method === 'notifications/cancelled') {
          const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
          if (typeof id === 'string' || typeof id === 'number') this.forget(keyOf(id));
        }
        this.onmessage?.(message, extra);
      },
    });
    await this.inner.start();
  }

  /**
   * Claims the request ids of one POST for `by`, or returns the refusal for the first id that is
   * running (or repeated within the POST); nothing is claimed then.
   */
  claim(messages: readonly JSONRPCMessage[], by: Claimant): JSONRPCErrorResponse | null {
    const keys = new Map<string, RequestId>();
    for (const m of messages) {
      if (!isRequest(m)) continue;
      const key = keyOf(m.id);
      if (this.claims.has(key) || keys.has(key)) return jsonRpcError(m.id, JSON_RPC_ERRORS.invalidRequest, REQUEST_ID_IN_USE);
      keys.set(key, m.id);
    }
    for (const [key, id] of keys) this.claims.set(key, { by, taken: false, id });
    return null;
  }

  /**
   * The POST is over: ids it claimed that never reached the server (the transport refused it) are
   * free; requests it carried that are still running are cancelled unless the client resumes.
   */
  release(by: Claimant): void {
    for (const [key, claim] of this.claims) {
      if (claim.by !== by) continue;
      if (!claim.taken) this.claims.delete(key);
      else if (!this.abandoned.has(key)) {
        const timer = setTimeout(() => this.cancelAbandoned(key), this.graceMs);
        timer.unref?.();
        this.abandoned.set(key, timer);
      }
    }
  }

  /** The client reconnected a stream (GET with Last-Event-ID): it is still there for its requests. */
  resumed(): void {
    for (const timer of this.abandoned.values()) clearTimeout(timer);
    this.abandoned.clear();
  }

  private cancelAbandoned(key: string): void {
    this.abandoned.delete(key);
    const claim = this.claims.get(key);
    if (!claim) return;
    this.claims.delete(key);
    const reason = 'the client went away: the request stream closed before its answer and was not resumed';
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: claim.id, reason } });
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResult(message) || isErrorResponse(message)) {
      if (message.id !== undefined) this.forget(keyOf(message.id));
    }
    return this.inner.send(message, options);
  }

  override close(): Promise<void> {
    this.resumed();
    return this.inner.close();
  }

  private forget(key: string): void {
    this.claims.delete(key);
    clearTimeout(this.abandoned.get(key));
    this.abandoned.delete(key);
  }
}
