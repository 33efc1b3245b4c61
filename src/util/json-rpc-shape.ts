// The common JSON-RPC message shapes recognised from their keys, without the SDK's zod union
// (JSONRPCMessageSchema): each frame of a tools/call paid that union's parse once per hop (issue 14).
// Only shapes that union certainly accepts unchanged pass here; anything else (error responses,
// results' `_meta`, related-task metadata, unknown keys, bad ids) goes to the SDK's parse, which
// accepts or rejects it as before.

/**
 * The key of the 2025-11-25 tasks' related-task metadata in `_meta`: the SDK's RELATED_TASK_META_KEY,
 * written out because util loads no SDK (a test holds the two equal).
 */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema's request id: a string or an integer (zod's `int()` means a safe integer). */
const isId = (id: unknown): boolean => typeof id === 'string' || Number.isSafeInteger(id);

/**
 * A request's or notification's `_meta` as the schema (a loose object) passes it unchanged: its
 * `progressToken` absent or an id, and no related-task metadata (an object the schema strips of
 * unknown keys). A 2026-07-28 request's envelope (protocol version, client info, capabilities) and a
 * client's progress token are such `_meta`.
 */
const plainMeta = (meta: unknown): boolean => isPlainObject(meta) && (!('progressToken' in meta) || isId(meta.progressToken)) && !(RELATED_TASK in meta);

/** Absent, or an object whose `_meta` (the part the schema checks) is absent or plain. */
const plainParams = (params: unknown): boolean => params === undefined || (isPlainObject(params) && (!('_meta' in params) || plainMeta(params._meta)));

/**
 * True when `value` is a request, notification or result response that the SDK's message schema
 * accepts as it is: it may be used as the parsed message. False says nothing: parse it.
 */
export function isPlainJsonRpcMessage(value: unknown): boolean {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return false;
  let keys = 1;
  if ('method' in value) {
    // A request or a notification (strict: nothing beyond jsonrpc, id, method, params).
    if (typeof value.method !== 'string') return false;
    keys += 1;
    if ('id' in value) {
      if (!isId(value.id)) return false;
      keys += 1;
    }
    if ('params' in value) {
      if (!plainParams(value.params)) return false;
      keys += 1;
    }
  } else {
    // A result response: exactly jsonrpc, id and result.
    if (!isId(value.id) || !isPlainObject(value.result) || '_meta' in value.result) return false;
    keys += 2;
  }
  return Object.keys(value).length === keys;
}
