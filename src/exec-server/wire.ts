// The JSON-RPC 2.0 envelope of the exec-server protocol (our own client and service, not MCP):
// zod schemas for the frames, the error codes, and helpers to build frames.
import { z } from 'zod';
import { JSON_RPC_ERRORS, jsonRpcError } from '../util/index.js';

export const JSONRPC_VERSION = '2.0';

export const RpcIdSchema = z.union([z.string().max(200), z.number().int()]);
export type RpcId = z.infer<typeof RpcIdSchema>;

export const RpcRequestSchema = z
  .object({ jsonrpc: z.literal(JSONRPC_VERSION), id: RpcIdSchema, method: z.string().min(1), params: z.unknown().optional() })
  .strict();
export type RpcRequest = z.infer<typeof RpcRequestSchema>;

export const RpcNotificationSchema = z
  .object({ jsonrpc: z.literal(JSONRPC_VERSION), method: z.string().min(1), params: z.unknown().optional() })
  .strict();
export type RpcNotification = z.infer<typeof RpcNotificationSchema>;

export const RpcErrorObjectSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
export type RpcErrorObject = z.infer<typeof RpcErrorObjectSchema>;

export const RpcSuccessSchema = z.object({ jsonrpc: z.literal(JSONRPC_VERSION), id: RpcIdSchema, result: z.unknown() }).strict();
export const RpcErrorResponseSchema = z
  .object({ jsonrpc: z.literal(JSONRPC_VERSION), id: RpcIdSchema.nullable(), error: RpcErrorObjectSchema })
  .strict();
export type RpcErrorResponse = z.infer<typeof RpcErrorResponseSchema>;

/** Every frame the client can receive from the service. */
export const ServerFrameSchema = z.union([RpcSuccessSchema, RpcErrorResponseSchema, RpcNotificationSchema]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

/** JSON-RPC error codes: the standard ones, then the service's own (-32001..-32099). */
export const RpcErrorCode = {
  ...JSON_RPC_ERRORS,
  unknownProcess: -32001,
  processExited: -32002,
  limitExceeded: -32003,
  spawnFailed: -32004,
  duplicateProcess: -32005,
  messageTooLarge: -32006,
} as const;
export type RpcErrorCodeName = keyof typeof RpcErrorCode;

/** The reverse of RpcErrorCode, for turning a wire error into a SwitchboardError code. */
export function rpcErrorCodeName(code: number): RpcErrorCodeName | null {
  for (const [name, value] of Object.entries(RpcErrorCode)) if (value === code) return name as RpcErrorCodeName;
  return null;
}

export function rpcResult(id: RpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: JSONRPC_VERSION, id, result });
}

export function rpcError(id: RpcId | null, code: number, message: string, data?: unknown): string {
  return JSON.stringify(jsonRpcError(id, code, message, data));
}

export function rpcNotification(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: JSONRPC_VERSION, method, params });
}

export function rpcRequest(id: RpcId, method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: JSONRPC_VERSION, id, method, params });
}

/** A short, readable rendering of zod issues for an `invalid params` error message. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
