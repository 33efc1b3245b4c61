// The kind of a JSON-RPC message a transport has already validated, read from its keys. The SDK's
// guards (isJSONRPCRequest, ...) validate the whole message again with zod on each call, which the
// per-request paths of the HTTP host paid several times per tools/call.
import type { JSONRPCErrorResponse, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResultResponse } from '@modelcontextprotocol/server';

const hasId = (m: JSONRPCMessage): boolean => {
  const id = (m as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number';
};

export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && hasId(m);

export const isNotification = (m: JSONRPCMessage): m is JSONRPCNotification => 'method' in m && !hasId(m);

export const isResult = (m: JSONRPCMessage): m is JSONRPCResultResponse => 'result' in m && !('method' in m);

export const isErrorResponse = (m: JSONRPCMessage): m is JSONRPCErrorResponse => 'error' in m && !('method' in m);
