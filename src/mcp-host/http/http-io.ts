// Small HTTP helpers for the MCP host: JSON responses, and reading a POST
// body with a size bound, answering unparsable or malformed JSON-RPC before any transport sees it.
import type http from 'node:http';
import { parseJSONRPCMessage, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';
import { isPlainJsonRpcMessage, JSON_RPC_ERRORS, jsonRpcError } from '../../util/index.js';

// JSON between systems is UTF-8 (RFC 8259); a lenient decode would turn bad bytes into U+FFFD.
// One decoder for every body: decode() without `stream` starts afresh each time.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A JSON-RPC body's id, when it has one an error answer may echo. */
export function idOf(value: unknown): RequestId | null {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * The JSON-RPC messages of a body about to be refused, if they arrive whole within `maxBytes` and
 * `ms` (for the audit record of the refusal; a slow or large body is not waited for): [] otherwise.
 */
export async function glimpseJsonBody(req: http.IncomingMessage, maxBytes: number, ms: number): Promise<JSONRPCMessage[]> {
  const raw = await new Promise<Buffer | null>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer | null) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) done(null);
      else chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks));
    const onError = () => done(null);
    const timer = setTimeout(() => done(null), ms);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
  if (raw === null) return [];
  try {
    const body: unknown = JSON.parse(UTF8.decode(raw));
    return (Array.isArray(body) ? body : [body]).filter((m): m is JSONRPCMessage => isPlainJsonRpcMessage(m));
  } catch {
    return [];
  }
}

/** The least a body over the bound is read past it before its 413 (as much again as the bound when that is more). */
const DRAIN_BYTES = 1024 * 1024;

/**
 * The parsed body and its JSON-RPC messages, or null once an error response has been sent
 * (413 over the size bound, 400 -32700 for bytes that are not UTF-8 or not JSON, 400 -32600 for a
 * malformed message).
 */
export async function readJsonBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  maxBytes: number,
): Promise<{ body: unknown; messages: JSONRPCMessage[] } | null> {
  // Over the bound, the rest of the body is read and dropped, and the 413 sent once it has all come
  // in: a socket closed with bytes still arriving is reset, and a client still sending would lose the
  // answer. Past as much again as the bound (at least DRAIN_BYTES) it is sent at once and the
  // connection closed.
  const drainedUpTo = maxBytes + Math.max(maxBytes, DRAIN_BYTES);
  const raw = await new Promise<Buffer | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
      if (size > drainedUpTo) resolve(null);
    });
    req.on('end', () => resolve(size > maxBytes ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
  if (raw === null) {
    sendJson(res, 413, jsonRpcError(null, -32000, `Payload too large: the body exceeds ${maxBytes} bytes`), { connection: 'close' });
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(UTF8.decode(raw));
  } catch {
    sendJson(res, 400, jsonRpcError(null, JSON_RPC_ERRORS.parseError, 'Parse error: Invalid JSON'));
    return null;
  }
  const items = Array.isArray(body) ? body : [body];
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    try {
      messages.push(isPlainJsonRpcMessage(item) ? (item as JSONRPCMessage) : parseJSONRPCMessage(item));
    } catch {
      sendJson(res, 400, jsonRpcError(idOf(item), JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: not a valid JSON-RPC 2.0 message'));
      return null;
    }
  }
  return { body, messages };
}
