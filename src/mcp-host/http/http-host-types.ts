// The HTTP host's public shapes: what a product hands it (options, a session handle), what it
// returns, and closingAlso() for products that must close their own resources after it.
import type { AuditDescriber } from '../access/audit-trail.js';
import type http from 'node:http';
import type { JSONRPCErrorResponse, JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { ListenAddress, Logger } from '../../util/index.js';
import type { Ops } from '../ops/index.js';
import type { ModernLeg } from './modern-leg.js';
import type { RequestStateKey } from '../flows/request-state.js';
import type { ResourceAuth } from './resource-auth.js';
import type { SharedSessions } from './shared-sessions.js';

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
  /**
   * OAuth protected resource (resource-auth.ts): metadata, token validation, per-caller limits. It
   * replaces the check of `token` (which it still accepts) and binds each session to its caller.
   */
  auth?: ResourceAuth;
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
  /**
   * Replicas behind one load balancer: session records and SSE events kept where all of them read,
   * so any replica serves any session (it adopts one it does not hold). Absent: this process only.
   */
  sharedSessions?: SharedSessions;
  logger: Logger;
  /** Serves 2026-07-28 requests (the rest go to the sessions); without it the endpoint is 2025-only. */
  modern?: ModernLeg;
  /**
   * The key sealing 2026-07-28 requestState for the product's modern leg: one key shared by every
   * replica (the store's) lets any of them open another's state. Default: random per process.
   */
  requestStateKey?: RequestStateKey;
  /** Health, readiness, metrics and the status page beside the endpoint; its telemetry observes every request. */
  ops?: Ops;
  /**
   * Give the heap back once the host has been quiet this long (idle-memory.ts): a full collection
   * of the whole process, so it is for a process that is a server (the CLI's `--http`, default
   * IDLE_RELEASE_MS), not for a program that embeds the host (default: absent or 0, never).
   */
  releaseIdleMemoryAfterMs?: number;
  /** Whether a request's server span is the current span while the product handles it (ObservedTransportInfo.currentSpan; default true). */
  currentSpan?: boolean;
  /** What the product knows of a request (its real tool, its upstream), for the audit records of refusals at the door. */
  describe?: AuditDescriber;
  /**
   * Pages a product serves beside the endpoint, for browsers (the gateway's upstream sign-in pages,
   * beneath the endpoint path): true when it answered. Reached without the endpoint's token (a
   * browser has none), after the Host/Origin check.
   */
  routes?(req: http.IncomingMessage, res: http.ServerResponse, url: URL, endpointPath: string): Promise<boolean>;
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
