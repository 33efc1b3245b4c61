// The one error type of MCP work: every McpClient operation and every McpConnectionManager method
// throws it, with a code from one union. Kept here, below both layers, so the manager can throw it
// without loading the connection layer (and the MCP SDK) at start-up.
import { SwitchboardError } from './errors.js';

/** What went wrong with an MCP operation; retry and recovery decide by this code. */
export type McpErrorCode =
  /** The operation's deadline passed (`timed out awaiting tools/call after 60s`). */
  | 'timeout'
  /** The caller aborted the operation; the server was sent notifications/cancelled. */
  | 'cancelled'
  /** HTTP 404 on a request that carried a session id: the server forgot the session. */
  | 'session_expired'
  /** HTTP 401, or no usable OAuth tokens. The message always contains "Auth required". */
  | 'auth_required'
  /** HTTP 403 with a Bearer `insufficient_scope` challenge (step-up needed). */
  | 'insufficient_scope'
  /** Any other non-2xx HTTP answer: `HTTP <status>: <body preview>`. */
  | 'http_status'
  /** The request never got an HTTP answer (refused, reset, DNS). */
  | 'network'
  /** The connection ended (stdout closed, transport closed) while the operation needed it. */
  | 'connection_closed'
  /** The stdio server process exited. */
  | 'process_exited'
  /** A stdio server failed the 2026-07-28 `server/discover` probe (a 2025-era server that exits on it); it is started again with `initialize`. */
  | 'probe_failed'
  /** The server sent something that is not valid JSON-RPC / MCP. */
  | 'decode'
  /** A JSON-RPC error answer or a protocol-level failure. */
  | 'protocol'
  /** A list did not terminate: repeated cursor, page or item limit. */
  | 'pagination'
  /** The stdio server could not be started (program missing, bad cwd, ...). */
  | 'launch_failed'
  /** The server's configuration cannot be used (missing bearer variable, remote env source, ...). */
  | 'config'
  /** An operation was called before connect() succeeded. */
  | 'not_ready'
  /** An operation was called after close(). */
  | 'closed'
  // The connection manager's own failures (McpConnectionManager throws this same error type):
  /** No tool by that model-visible name in the catalog, or its server no longer offers it (or the caller may not use it). */
  | 'unknown_tool'
  /** No prompt by that name on the server (or the caller may not use it). */
  | 'unknown_prompt'
  /** No resource by that URI on the server (or the caller may not read it). */
  | 'unknown_resource'
  /** No enabled server by that name. */
  | 'unknown_server'
  /** The server's `enabled_tools` / `disabled_tools` exclude the tool. */
  | 'tool_disabled'
  /** The server failed to start, stopped after being ready, or its manager was closed; `cause` is why. */
  | 'server_unavailable'
  /** `requireServers()`: a `required = true` server did not start. */
  | 'required_failed'
  /** An `identity = "caller"` server this caller has not signed in to yet (the manager's `upstreamLogin` makes the link). */
  | 'upstream_login_required'
  /** An `identity = "caller"` server reached by a request with no caller to act as (stdio, the static token). */
  | 'caller_required';

/** Facts about a failure that callers may act on. */
export interface McpErrorDetails {
  /** HTTP status, for http_status / auth_required / insufficient_scope / session_expired. */
  status?: number;
  /** The WWW-Authenticate challenge of a 401/403, kept for the OAuth layer. */
  challenge?: string;
  /** The scope a 403 insufficient_scope challenge asked for. */
  requiredScope?: string;
  /** The JSON-RPC error code, for protocol errors answered by the server. */
  rpcCode?: number;
  /** The last stderr lines of a stdio server, attached to startup and exit errors. */
  stderrTail?: string[];
}

/**
 * The error of every McpClient operation and every McpConnectionManager method: a stable `code` (one
 * union, {@link McpErrorCode}) and its details. An aborted `signal` is always `cancelled`.
 */
export class McpClientError extends SwitchboardError {
  declare readonly code: McpErrorCode;
  readonly details: McpErrorDetails;

  constructor(code: McpErrorCode, message: string, options: McpErrorDetails & { cause?: unknown } = {}) {
    const { cause, ...details } = options;
    super(code, message, { cause });
    this.name = 'McpClientError';
    this.details = details;
  }

  /** The same error with a stderr tail appended to its message (startup errors show it). */
  withStderrTail(lines: string[]): McpClientError {
    if (lines.length === 0 || this.details.stderrTail) return this;
    const message = `${this.message}\nLast stderr lines:\n${lines.map((l) => `  ${l}`).join('\n')}`;
    return new McpClientError(this.code, message, { ...this.details, stderrTail: lines, cause: this.cause });
  }
}

/** True when `err` is an McpClientError (with this code, when given). */
export function isMcpClientError(err: unknown, code?: McpErrorCode): err is McpClientError {
  return err instanceof McpClientError && (code === undefined || err.code === code);
}

