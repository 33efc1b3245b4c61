// fast-check generators of JSON-RPC frames for fuzzing an MCP server (any transport): well-formed
// requests with random parameters, notifications, stray responses, structurally broken messages,
// non-JSON garbage, batches and pathological JSON. Plus the check every reply must pass.
import fc from 'fast-check';

export type FrameKind = 'request' | 'notification' | 'response' | 'malformed' | 'garbage' | 'batch' | 'pathological';

export interface Frame {
  kind: FrameKind;
  /**
   * One line of text (never contains a newline). A well-formed request carries the id placeholder
   * REPLY_ID_PLACEHOLDER, which the driver replaces with a fresh id when it sends the frame.
   */
  text: string;
  /** A well-formed request: the server must answer it exactly once (result or error). */
  expectsReply: boolean;
}

export interface FrameOptions {
  /** Tools a random tools/call may name (besides random names): fast, without side effects. */
  safeTools: readonly string[];
  /** Methods worth hitting with random params, besides random method names. */
  methods?: readonly string[];
}

/** The methods an MCP server dispatches (client → server). */
export const MCP_METHODS = [
  'initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read',
  'resources/subscribe', 'resources/unsubscribe', 'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel',
  'tasks/get', 'tasks/list', 'tasks/cancel', 'tasks/result',
] as const;

export const MCP_NOTIFICATIONS = [
  'notifications/initialized', 'notifications/progress', 'notifications/cancelled', 'notifications/roots/list_changed',
  'notifications/message', 'notifications/unknown',
] as const;

/** Ids of well-formed requests live in their own space, so no generated frame can collide with them. */
export const REPLY_ID_PREFIX = 'fz:ok:';
export const REPLY_ID_PLACEHOLDER = `${REPLY_ID_PREFIX}?`;

/** The frame as sent, with its reply id filled in. */
export function withReplyId(frame: Frame, id: string): string {
  return frame.expectsReply ? frame.text.replace(JSON.stringify(REPLY_ID_PLACEHOLDER), JSON.stringify(id)) : frame.text;
}

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const anyText = fc.oneof(text, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme-ascii', maxLength: 4_000 }));
const json = fc.jsonValue({ maxDepth: 4 });
const params = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(text, json, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: json },
);
/** Ids that are not valid JSON-RPC ids, or are valid but outside the reply space. */
const strayId = fc.oneof(fc.integer(), fc.double(), fc.constant(null), text, fc.boolean(), fc.dictionary(text, json, { maxKeys: 2 }), fc.array(json, { maxLength: 3 }));

function methodFor(options: FrameOptions): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(options.methods ?? MCP_METHODS)) },
    { weight: 1, arbitrary: text },
    { weight: 1, arbitrary: fc.constantFrom('', 'rpc.discover', 'tools/', '/tools/call', 'TOOLS/LIST', 'notifications/initialized', '__proto__', 'constructor') },
  );
}

/** Params shaped for a method, so handlers get past the first check and meet odd values deeper in. */
function shapedParams(method: string, options: FrameOptions): fc.Arbitrary<unknown> {
  switch (method) {
    case 'tools/call':
      return fc.record(
        { name: fc.oneof(fc.constantFrom(...options.safeTools), text), arguments: fc.oneof(fc.dictionary(text, json, { maxKeys: 4 }), json), _meta: fc.dictionary(text, json, { maxKeys: 2 }) },
        { requiredKeys: ['name'] },
      );
    case 'initialize':
      return fc.record(
        { protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05', '1999-01-01'), text), capabilities: fc.dictionary(text, json, { maxKeys: 3 }), clientInfo: fc.record({ name: text, version: text }) },
        { requiredKeys: [] },
      );
    case 'resources/read':
    case 'resources/subscribe':
      return fc.record({ uri: fc.oneof(fc.webUrl(), text) });
    case 'prompts/get':
      return fc.record({ name: text, arguments: fc.dictionary(text, text, { maxKeys: 3 }) }, { requiredKeys: ['name'] });
    case 'logging/setLevel':
      return fc.record({ level: fc.oneof(fc.constantFrom('debug', 'info', 'error', 'emergency'), text) });
    case 'tools/list':
    case 'resources/list':
    case 'prompts/list':
      return fc.record({ cursor: fc.oneof(text, fc.integer().map(String)) }, { requiredKeys: [] });
    default:
      return params;
  }
}

function wellFormedRequest(options: FrameOptions): fc.Arbitrary<Frame> {
  return methodFor(options).chain((method) =>
    fc.oneof(shapedParams(method, options), params).map((p): Frame => {
      // Params that are not an object make the request invalid; the server may still answer it.
      if (p !== undefined && (typeof p !== 'object' || p === null || Array.isArray(p))) {
        return { kind: 'malformed', text: JSON.stringify({ jsonrpc: '2.0', id: 'fz:stray', method, params: p }), expectsReply: false };
      }
      const message = { jsonrpc: '2.0', id: REPLY_ID_PLACEHOLDER, method, ...(p === undefined ? {} : { params: p }) };
      return { kind: 'request', text: JSON.stringify(message), expectsReply: true };
    }),
  );
}

const notification = (options: FrameOptions): fc.Arbitrary<Frame> =>
  fc.tuple(fc.oneof(fc.constantFrom(...MCP_NOTIFICATIONS), methodFor(options)), params).map(([method, p]): Frame => ({
    kind: 'notification',
    expectsReply: false,
    // A cancellation must never name one of our own requests (the server would then rightly not answer it).
    text: JSON.stringify({ jsonrpc: '2.0', method, ...(p === undefined ? {} : { params: method === 'notifications/cancelled' ? { requestId: 'fz:stray', reason: p } : p }) }),
  }));

const strayResponse: fc.Arbitrary<Frame> = fc
  .tuple(strayId, fc.oneof(fc.record({ result: json }), fc.record({ error: fc.record({ code: fc.integer(), message: text, data: json }, { requiredKeys: ['code'] }) })))
  .map(([id, body]): Frame => ({ kind: 'response', text: JSON.stringify({ jsonrpc: '2.0', id, ...body }), expectsReply: false }));

/** Messages that look like JSON-RPC but break its rules. */
const malformed = (options: FrameOptions): fc.Arbitrary<Frame> =>
  fc
    .oneof(
      fc.record({ jsonrpc: fc.oneof(fc.constantFrom('1.0', '2', '3.0', ''), fc.integer(), fc.constant(null)), id: fc.integer(), method: methodFor(options) }),
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer({ min: 1, max: 1e6 }), method: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.dictionary(text, json, { maxKeys: 2 })) }),
      fc.record({ jsonrpc: fc.constant('2.0'), id: strayId, method: methodFor(options), params: params }, { requiredKeys: ['jsonrpc', 'id', 'method'] }),
      fc.record({ id: fc.integer(), method: methodFor(options) }),
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), result: json, error: json }),
      fc.record({ jsonrpc: fc.constant('2.0') }),
      fc.dictionary(text, json, { maxKeys: 5 }),
    )
    .map((m): Frame => ({ kind: 'malformed', text: JSON.stringify(m), expectsReply: false }));

/** Lines that are not a JSON object at all. */
const garbage: fc.Arbitrary<Frame> = fc
  .oneof(
    anyText,
    json.map((v) => JSON.stringify(v)),
    fc.constantFrom('{', '}', '{"jsonrpc":"2.0",', '[', '[]', '{}', 'null', 'true', '"', '\u0000', '\ufeff{"jsonrpc":"2.0","method":"ping","id":1}', '{"jsonrpc":"2.0","id":1,"method":"ping"', ' '),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  )
  .map((t): Frame => ({ kind: 'garbage', text: t.replace(/[\r\n]/g, ' '), expectsReply: false }));

/** JSON-RPC batches (removed from MCP in 2025-06-18): answered or refused, never fatal. */
const batch = (options: FrameOptions): fc.Arbitrary<Frame> =>
  fc.array(fc.oneof(malformed(options), strayResponse), { minLength: 0, maxLength: 4 }).map((frames): Frame => ({ kind: 'batch', text: `[${frames.map((f) => f.text).join(',')}]`, expectsReply: false }));

/** Frames that stress parsers: deep nesting, long strings, many keys, odd numbers. */
const pathological: fc.Arbitrary<Frame> = fc
  .oneof(
    fc.integer({ min: 1_000, max: 20_000 }).map((depth) => `{"jsonrpc":"2.0","id":"fz:deep","method":"ping","params":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`),
    fc.integer({ min: 1_000, max: 100_000 }).map((depth) => '['.repeat(depth)),
    fc.integer({ min: 64, max: 1_024 }).map((kib) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(kib * 1024) } })),
    fc.integer({ min: 1_000, max: 10_000 }).map((n) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) })),
    fc.constantFrom('{"jsonrpc":"2.0","id":1e400,"method":"ping"}', '{"jsonrpc":"2.0","id":-0,"method":"x"}', '{"jsonrpc":"2.0","id":"a","id":"b","method":"ping"}', '{"__proto__":{"polluted":1},"jsonrpc":"2.0","method":"x"}'),
  )
  .map((t): Frame => ({ kind: 'pathological', text: t, expectsReply: false }));

/** One frame of any kind. */
export function frameArbitrary(options: FrameOptions): fc.Arbitrary<Frame> {
  return fc.oneof(
    { weight: 6, arbitrary: wellFormedRequest(options) },
    { weight: 2, arbitrary: notification(options) },
    { weight: 1, arbitrary: strayResponse },
    { weight: 3, arbitrary: malformed(options) },
    { weight: 3, arbitrary: garbage },
    { weight: 1, arbitrary: batch(options) },
    { weight: 1, arbitrary: pathological },
  );
}

/** Why `message` (one line the server wrote) is not a valid JSON-RPC message, or undefined if it is. */
export function invalidReply(line: string): string | undefined {
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const messages = Array.isArray(m) ? m : [m];
  for (const msg of messages) {
    if (typeof msg !== 'object' || msg === null) return 'not an object';
    const o = msg as Record<string, unknown>;
    if (o.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
    if (typeof o.method === 'string') continue; // a request or notification from the server
    if (!('id' in o)) return 'neither a method nor an id';
    const hasResult = 'result' in o;
    const hasError = 'error' in o;
    if (hasResult === hasError) return 'a response needs exactly one of result and error';
    if (hasError) {
      const e = o.error as Record<string, unknown> | null;
      if (typeof e !== 'object' || e === null || !Number.isInteger(e.code) || typeof e.message !== 'string') return 'error needs an integer code and a string message';
    }
  }
  return undefined;
}

/** A batch of frames; printed as a count (the driver's error shows the frames themselves). */
export function batchArbitrary(options: FrameOptions, size: { min: number; max: number }): fc.Arbitrary<Frame[]> {
  return fc
    .array(frameArbitrary(options), { minLength: size.min, maxLength: size.max })
    .map((frames) => Object.assign(frames, { [fc.toStringMethod]: () => `${frames.length} frames` }));
}
