// The two frames every proxied call brings, read without the MCP SDK's schema: a request whose
// params carry no `_meta`, and a result response whose result carries none. The SDK's JSON-RPC
// message schema (a zod union) accepts such a frame unchanged, but gets there by failing the union's
// other members first (a result response fails the request and notification shapes), about 1–1.5 µs
// and 5 KB of garbage a frame. Anything else returns undefined and goes through the SDK's parse.

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (id: unknown): boolean => typeof id === 'string' || Number.isSafeInteger(id);

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/**
 * `value` as the SDK's schema would return it (the envelope's keys in the schema's order, the
 * rest as it is) when it is a request or a result response the schema passes through unchanged;
 * undefined when only the SDK can tell.
 */
export function plainJsonRpcFrame(value: unknown): object | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || !isId(value.id)) return undefined;
  if (typeof value.method === 'string') {
    const params = value.params;
    if (params !== undefined && (!isPlainObject(params) || '_meta' in params)) return undefined;
    if (!onlyKeys(value, REQUEST_KEYS)) return undefined;
    return params === undefined ? { jsonrpc: '2.0', id: value.id, method: value.method } : { jsonrpc: '2.0', id: value.id, method: value.method, params };
  }
  const result = value.result;
  if (!isPlainObject(result) || '_meta' in result || !onlyKeys(value, RESULT_KEYS)) return undefined;
  return { jsonrpc: '2.0', id: value.id, result };
}
