// node:http to the SDK's web-standard session transport and back, in place of the SDK's Node adapter
// (@hono/node-server under NodeStreamableHTTPServerTransport). The transport still does the protocol;
// this only hands it the request (method and headers: the host has read and parsed the body) and
// writes its Response. An SSE response starts at once, its head in one write with the events already
// queued (the priming event): two socket writes per tools/call where the adapter made three (issue 14).
import type http from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** The SDK's WebStandardStreamableHTTPServerTransport, as far as this module uses it. */
export interface WebTransport {
  handleRequest(request: Request, options?: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response>;
}

/** Serves one request of a session: the transport's answer, streamed when it is an event stream. */
export async function serveWeb(transport: WebTransport, req: http.IncomingMessage & { auth?: AuthInfo }, res: http.ServerResponse, parsedBody: unknown): Promise<void> {
  let response: Response;
  try {
    response = await transport.handleRequest(nodeRequest(req), { authInfo: req.auth, parsedBody });
  } catch {
    // As the adapter answered a transport that threw: a bare 500.
    if (!res.headersSent) res.writeHead(500).end();
    return;
  }
  await writeResponse(response, res);
}

async function writeResponse(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = response.body;
  if (!body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  headers['content-type'] ??= 'text/plain; charset=UTF-8';
  if (!headers['content-type'].startsWith('text/event-stream')) {
    const bytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(bytes.length) }).end(bytes);
    return;
  }
  res.writeHead(response.status, { ...headers, 'transfer-encoding': 'chunked' });
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.on('close', cancel);
  try {
    // What the transport queued before answering (the priming event) leaves with the head; the head
    // never waits for an event still to come (a listening stream may get none for minutes).
    let next = reader.read();
    const first = await Promise.race([next, Promise.resolve().then(() => Promise.resolve(NOTHING_YET))]);
    if (first === NOTHING_YET) res.flushHeaders();
    else next = Promise.resolve(first);
    for (;;) {
      const { done, value } = await next;
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (res.destroyed) return;
      next = reader.read();
    }
    res.end();
  } catch (err) {
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  } finally {
    res.off('close', cancel);
  }
}

/** Loses a race against a read of a chunk already queued (that read has settled), wins against any other. */
const NOTHING_YET = Symbol('nothing yet');

function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const isHttpSpace = (code: number) => code === 9 || code === 10 || code === 13 || code === 32;

/** A header's value as Headers.get gives it: every occurrence, trimmed, joined (`; ` for cookies). */
function headerValue(raw: string[], lower: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== lower.length || name.toLowerCase() !== lower) continue;
    let v = raw[i + 1]!;
    if (v.length > 0 && (isHttpSpace(v.charCodeAt(0)) || isHttpSpace(v.charCodeAt(v.length - 1)))) {
      let start = 0;
      let end = v.length;
      while (start < end && isHttpSpace(v.charCodeAt(start))) start++;
      while (end > start && isHttpSpace(v.charCodeAt(end - 1))) end--;
      v = v.slice(start, end);
    }
    value = value === null ? v : `${value}${lower === 'cookie' ? '; ' : ', '}${v}`;
  }
  return value;
}

/**
 * The request as the transport reads it: `method` and `headers.get/has` straight from the node
 * request. Anything else (handlers see it as `ctx.http.req`) comes from a real Request built on first
 * use, without a body (the host has consumed it; the parsed message travels separately).
 */
function nodeRequest(req: http.IncomingMessage): Request {
  const light = Object.create(LIGHT_REQUEST) as LightRequest;
  light.incoming = req;
  return light as unknown as Request;
}

interface LightRequest {
  incoming: http.IncomingMessage;
  materialized?: Request;
  lightHeaders?: Headers;
}

function realRequest(self: LightRequest): Request {
  if (!self.materialized) {
    const req = self.incoming;
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    self.materialized = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers });
  }
  return self.materialized;
}

interface LightHeaders {
  owner: LightRequest;
}

/** Headers answering get/has from the raw node headers; any other use goes to the real Request's. */
const LIGHT_HEADERS: object = (() => {
  const proto = Object.create(Headers.prototype) as object;
  for (const key of Reflect.ownKeys(Headers.prototype)) {
    const desc = Object.getOwnPropertyDescriptor(Headers.prototype, key)!;
    if (key === 'constructor' || key === 'get' || key === 'has' || typeof desc.value !== 'function') continue;
    Object.defineProperty(proto, key, {
      value: function (this: LightHeaders, ...args: unknown[]) {
        return (realRequest(this.owner).headers as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[key]!(...args);
      },
    });
  }
  Object.defineProperty(proto, 'get', { value: function (this: LightHeaders, name: string) { return headerValue(this.owner.incoming.rawHeaders, String(name).toLowerCase()); } });
  Object.defineProperty(proto, 'has', { value: function (this: LightHeaders, name: string) { return headerValue(this.owner.incoming.rawHeaders, String(name).toLowerCase()) !== null; } });
  return proto;
})();

const LIGHT_REQUEST: object = (() => {
  const proto = Object.create(Request.prototype) as object;
  for (const key of Reflect.ownKeys(Request.prototype)) {
    if (key === 'constructor' || key === 'method' || key === 'headers') continue;
    const desc = Object.getOwnPropertyDescriptor(Request.prototype, key)!;
    if (desc.get) Object.defineProperty(proto, key, { get: function (this: LightRequest) { return (realRequest(this) as unknown as Record<PropertyKey, unknown>)[key]; } });
    else if (typeof desc.value === 'function') Object.defineProperty(proto, key, { value: function (this: LightRequest, ...args: unknown[]) { return (realRequest(this) as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[key]!(...args); } });
  }
  Object.defineProperty(proto, 'method', { get: function (this: LightRequest) { return this.incoming.method ?? 'GET'; } });
  Object.defineProperty(proto, 'headers', {
    get: function (this: LightRequest) {
      if (!this.lightHeaders) {
        const headers = Object.create(LIGHT_HEADERS) as LightHeaders;
        headers.owner = this;
        this.lightHeaders = headers as unknown as Headers;
      }
      return this.lightHeaders;
    },
  });
  return proto;
})();
