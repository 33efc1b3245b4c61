// The JSON-RPC 2.0 error envelope, built in one place for every server switchboard runs (the MCP
// hosts over stdio and HTTP, and the exec-server), and the standard error codes.

export type JsonRpcId = string | number;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** `id` is null when the request's id could not be read (unparsable or malformed input). */
export interface JsonRpcErrorResponse<Id extends JsonRpcId | null = JsonRpcId | null> {
  jsonrpc: '2.0';
  id: Id;
  error: JsonRpcErrorObject;
}

/** The codes JSON-RPC 2.0 reserves; -32000..-32099 are left to each server. */
export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** `{jsonrpc: '2.0', id, error: {code, message, data?}}`; `data` only when given. */
export function jsonRpcError<Id extends JsonRpcId | null>(id: Id, code: number, message: string, data?: unknown): JsonRpcErrorResponse<Id> {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}
