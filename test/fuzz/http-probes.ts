// fast-check generators of HTTP-level garbage for a Streamable HTTP MCP endpoint, mixed into each
// batch of JSON-RPC frames: wrong Content-Type or Accept, missing/unknown session, bad protocol
// version, bodies around the 4 MiB bound, non-UTF-8 bytes, empty bodies, wrong methods, paths and
// tokens, a request reusing the id of one still running, and raw bytes that are not HTTP at all.
// Each says what a clean answer is.
import fc from 'fast-check';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** `reject`: a 4xx with a JSON-RPC error body. `answer-or-reject`: that, or a well-formed answer. */
export type ProbeExpectation = { kind: 'reject'; status: number } | { kind: 'answer-or-reject' } | { kind: 'accepted' };

export type HttpProbe =
  | { kind: 'content-type'; contentType: string | null }
  | { kind: 'accept'; accept: string | null }
  | { kind: 'no-session' }
  | { kind: 'unknown-session'; sessionId: string }
  | { kind: 'protocol-version'; version: string }
  | { kind: 'large'; bytes: number }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'bad-utf8-in-json'; bytes: Uint8Array }
  | { kind: 'empty' }
  | { kind: 'method'; method: 'PUT' | 'PATCH' | 'OPTIONS' }
  | { kind: 'path'; path: string }
  | { kind: 'token'; authorization: string | null }
  | { kind: 'second-initialize' }
  | { kind: 'reused-id'; id: string | number }
  | { kind: 'raw'; bytes: Uint8Array };

/** What a clean answer to `probe` is. */
export function expectationOf(probe: HttpProbe): ProbeExpectation {
  switch (probe.kind) {
    case 'content-type':
      return { kind: 'reject', status: 415 };
    case 'accept':
      return { kind: 'reject', status: 406 };
    case 'no-session':
      return { kind: 'reject', status: 400 };
    case 'unknown-session':
      return { kind: 'reject', status: 404 };
    case 'protocol-version':
      // serve takes an older dated version as the negotiated one (see docs/agent-server.md, Streamable HTTP).
      return { kind: 'answer-or-reject' };
    case 'large':
      return probe.bytes > MAX_BODY_BYTES ? { kind: 'reject', status: 413 } : { kind: 'accepted' };
    case 'bytes':
    case 'empty':
    case 'bad-utf8-in-json':
      return { kind: 'reject', status: 400 };
    case 'method':
      return { kind: 'reject', status: 405 };
    case 'path':
      return { kind: 'reject', status: 404 };
    case 'token':
      return { kind: 'reject', status: 401 };
    case 'second-initialize':
      return { kind: 'reject', status: 400 };
    case 'raw':
      return { kind: 'reject', status: 400 };
    case 'reused-id':
      // Judged by the driver: the first request answered once, the second refused (or answered once).
      return { kind: 'answer-or-reject' };
  }
}

const notUtf8 = fc.constantFrom(
  [0xff], [0xfe, 0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xc3],
);

/** A JSON-shaped body with a byte sequence that is not UTF-8, inside a string or outside one. */
const badUtf8Json: fc.Arbitrary<Uint8Array> = fc.tuple(notUtf8, fc.boolean()).map(([bad, inString]) => {
  const [before, after] = inString ? ['{"jsonrpc":"2.0","id":"fz:utf8","method":"ping","params":{"s":"', '"}}'] : ['{"jsonrpc":"2.0","id":"fz:utf8","method":"ping"', '}'];
  return new Uint8Array([...Buffer.from(before), ...bad, ...Buffer.from(after)]);
});

const notHttp: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 200 }),
  fc.constantFrom('GARBAGE\r\n\r\n', 'POST /mcp HTTP/9.9\r\n\r\n', 'POST /mcp HTTP/1.1\r\nContent-Length: -1\r\n\r\n', 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\nz\r\n', '\u0000\u0001\u0002 / HTTP/1.1\r\n\r\n').map((s) => new Uint8Array(Buffer.from(s, 'latin1'))),
);

export const probeArbitrary: fc.Arbitrary<HttpProbe> = fc.oneof(
  fc.record({ kind: fc.constant('content-type' as const), contentType: fc.constantFrom(null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'json') }),
  fc.record({ kind: fc.constant('accept' as const), accept: fc.constantFrom(null, 'application/json', 'text/event-stream', '*/*', 'text/html') }),
  fc.constant({ kind: 'no-session' as const }),
  fc.record({ kind: fc.constant('unknown-session' as const), sessionId: fc.oneof(fc.uuid(), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }).filter((s) => /^[\x21-\x7e]+$/.test(s))) }),
  fc.record({ kind: fc.constant('protocol-version' as const), version: fc.constantFrom('1999-01-01', '2099-12-31', 'latest', '2025-11-25x', 'x', '2025-13-45') }),
  fc.record({ kind: fc.constant('bytes' as const), bytes: fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 256 }).filter((b) => b.some((x) => x >= 0x80)), notUtf8.map((b) => new Uint8Array(b))) }),
  fc.record({ kind: fc.constant('bad-utf8-in-json' as const), bytes: badUtf8Json }),
  fc.constant({ kind: 'empty' as const }),
  fc.record({ kind: fc.constant('method' as const), method: fc.constantFrom('PUT' as const, 'PATCH' as const, 'OPTIONS' as const) }),
  fc.record({ kind: fc.constant('path' as const), path: fc.constantFrom('/', '/mcp/', '/MCP', '/mcp/x', '/sse', '/..%2fmcp') }),
  fc.record({ kind: fc.constant('token' as const), authorization: fc.constantFrom(null, 'Bearer', 'Bearer wrong-token-0123456789', 'Basic Zm9vOmJhcg==', 'bearer') }),
  fc.constant({ kind: 'second-initialize' as const }),
  fc.record({ kind: fc.constant('reused-id' as const), id: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('fz:reuse', '0', '')) }),
  fc.record({ kind: fc.constant('raw' as const), bytes: notHttp }),
);

const large: fc.Arbitrary<HttpProbe> = fc.record({ kind: fc.constant('large' as const), bytes: fc.integer({ min: MAX_BODY_BYTES - 64, max: MAX_BODY_BYTES + 256 * 1024 }) });

/** The HTTP garbage sent alongside one batch of frames; a 4 MiB body costs as much as a hundred frames, so one batch in four gets one. */
export const probesArbitrary: fc.Arbitrary<HttpProbe[]> = fc
  .tuple(fc.array(probeArbitrary, { minLength: 4, maxLength: 10 }), fc.integer({ min: 0, max: 3 }), large)
  .map(([probes, dice, body]) => (dice === 0 ? [...probes, body] : probes));

export interface ProbeRequest {
  method?: string;
  url?: string;
  /** Header overrides on top of a good request of the session (null removes a header). */
  headers: Record<string, string | null>;
  body: string | Uint8Array;
}

const PING = JSON.stringify({ jsonrpc: '2.0', id: 'fz:probe', method: 'ping' });

/** A notification padded to exactly `bytes` bytes. */
function paddedNotification(bytes: number): string {
  const head = '{"jsonrpc":"2.0","method":"notifications/fz","params":{"pad":"';
  const tail = '"}}';
  return `${head}${'x'.repeat(Math.max(0, bytes - head.length - tail.length))}${tail}`;
}

/** The request that carries `probe` (all but `raw`, which is not HTTP, and `reused-id`, which is two). */
export function probeRequest(probe: Exclude<HttpProbe, { kind: 'raw' | 'reused-id' }>, url: string): ProbeRequest {
  switch (probe.kind) {
    case 'content-type':
      return { headers: { 'content-type': probe.contentType }, body: PING };
    case 'accept':
      return { headers: { accept: probe.accept }, body: PING };
    case 'no-session':
      return { headers: { 'mcp-session-id': null }, body: PING };
    case 'unknown-session':
      return { headers: { 'mcp-session-id': probe.sessionId }, body: PING };
    case 'protocol-version':
      return { headers: { 'mcp-protocol-version': probe.version }, body: PING };
    case 'large':
      return { headers: {}, body: paddedNotification(probe.bytes) };
    case 'bytes':
    case 'bad-utf8-in-json':
      return { headers: {}, body: probe.bytes };
    case 'empty':
      return { headers: {}, body: '' };
    case 'method':
      return { method: probe.method, headers: {}, body: PING };
    case 'path':
      return { url: new URL(probe.path, url).href, headers: {}, body: PING };
    case 'token':
      return { headers: { authorization: probe.authorization }, body: PING };
    case 'second-initialize':
      return { headers: {}, body: JSON.stringify({ jsonrpc: '2.0', id: 'fz:init2', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }) };
  }
}
