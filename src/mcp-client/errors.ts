// The typed errors of one MCP server connection; retry and recovery decide by `code`, never by text.
// The error type itself lives in util (the manager throws it too, without loading this layer).
import type { McpClientError } from '../util/index.js';

export { McpClientError, isMcpClientError, type McpErrorCode, type McpErrorDetails } from '../util/index.js';

/**
 * Failures worth another try of initialize or tools/list over HTTP: no answer at all, or a server
 * that is briefly overloaded. Auth, session expiry and decode failures never qualify.
 */
export function isTransient(err: McpClientError): boolean {
  switch (err.code) {
    case 'network':
      return true;
    case 'http_status': {
      const status = err.details.status ?? 0;
      return status >= 500 || status === 429 || status === 408;
    }
    default:
      return false;
  }
}

/** Codex's operation timeout text: `timed out awaiting tools/call after 60s`. */
export function operationTimeoutMessage(label: string, timeoutMs: number): string {
  return `timed out awaiting ${label} after ${formatSeconds(timeoutMs)}`;
}

/** Codex's handshake timeout text: `timed out handshaking with MCP server after 30s`. */
export function handshakeTimeoutMessage(timeoutMs: number): string {
  return `timed out handshaking with MCP server after ${formatSeconds(timeoutMs)}`;
}

/** Rust's `{:.0?}` for durations: whole seconds from 1 s up, milliseconds below. */
function formatSeconds(ms: number): string {
  if (ms >= 1000) return `${Math.round(ms / 1000)}s`;
  return `${Math.round(ms)}ms`;
}
