// The manager's errors are a connection's: McpClientError with a code of McpErrorCode, so a caller
// tests one type and one code union whatever failed (a server, a name, an abort).
import { McpClientError, raceSignal as raceAbort } from '../util/index.js';

/**
 * `promise`, or the caller's abort as McpClientError `cancelled` (its reason as the cause), as a
 * connection's own operations report an abort: never a bare DOMException.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return raceAbort(promise, signal).catch((err: unknown) => {
    if (signal.aborted && err === signal.reason && !(err instanceof McpClientError)) {
      throw new McpClientError('cancelled', 'cancelled while waiting for MCP servers', { cause: err });
    }
    throw err;
  });
}
