// How failures behind the gateway reach its client: an upstream's JSON-RPC error is passed on with its
// own code, message and data; anything else (a server that is down, a timeout) becomes an error the
// client can read, as a tool result for tools/call and as a JSON-RPC error elsewhere.
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { isMcpClientError } from '../mcp-client/index.js';
import { errorMessage } from '../util/index.js';

/** JSON-RPC code for a request that ran out of time (the SDK's RequestTimeout). */
const REQUEST_TIMEOUT = -32001;

/** The upstream's own JSON-RPC error, when `err` carries one. */
export function upstreamProtocolError(err: unknown): ProtocolError | undefined {
  if (err instanceof ProtocolError) return err;
  if (!isMcpClientError(err, 'protocol') || err.details.rpcCode === undefined) return undefined;
  const cause = err.cause;
  if (cause instanceof ProtocolError) return new ProtocolError(cause.code, cause.message, cause.data);
  return new ProtocolError(err.details.rpcCode, err.message);
}

/** Any failure as the JSON-RPC error the gateway answers with. */
export function toProtocolError(err: unknown): ProtocolError {
  const upstream = upstreamProtocolError(err);
  if (upstream) return upstream;
  if (isMcpClientError(err, 'timeout')) return new ProtocolError(REQUEST_TIMEOUT, err.message);
  return new ProtocolError(ProtocolErrorCode.InternalError, errorMessage(err));
}

/**
 * A tools/call failure: the upstream's JSON-RPC errors stay JSON-RPC errors (a pure proxy changes
 * nothing); a server that is unavailable, a timeout or a dropped connection becomes an `isError`
 * result, which a model can read and act on.
 */
export function toolCallFailure(err: unknown): CallToolResult {
  const upstream = upstreamProtocolError(err);
  if (upstream) throw upstream;
  return { content: [{ type: 'text', text: errorMessage(err) }], isError: true };
}

export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/**
 * A URI no server behind the gateway offers: -32602 with the URI in `data`, as the 2026-07-28
 * revision says (SEP-2164), in every era (2025 clients got -32602 before as well).
 */
export function resourceNotFound(uri: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${uri} not found: no MCP server behind this gateway offers it`, { uri });
}
