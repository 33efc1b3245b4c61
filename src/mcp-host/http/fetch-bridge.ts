// A Node request, its body already read and parsed by the host, handed to the SDK's web-standard
// serving entry (`handler.fetch`), and the entry's Response written back. The SDK's own adapter
// (`toNodeHandler`) does the same for any request; this one leans on what the host already did:
// - The body rides as `parsedBody` only. The SDK's adapter also re-serializes it into the Request
//   and measures it, and the web stream that carries it is never read (the entry takes the parsed
//   value). The Request here carries no body, so no content length or encoding either.
// - A JSON answer is written in one `end`. A stream (SSE) is copied as it comes, with backpressure,
//   as the SDK's adapter copies every answer.
// The Request still has the method, the URL, every header and an abort signal that fires when the
// client goes away, which is all the entry and the product read (docs/performance.md, fourteenth round).
import type http from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { errorMessage, jsonRpcError } from '../../util/index.js';
import { idOf, sendJson } from './http-io.js';

/** The SDK's serving entry, as `createMcpHandler` returns it. */
export interface FetchFace {
  fetch(request: Request, options?: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response>;
}

/** Headers the Request leaves out: it carries the body parsed, not as bytes. */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

export type NodeServe = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => Promise<void>;

/** `(req, res, parsedBody)` over the entry; `onerror` hears a throw from it before the 500 goes out. */
export function fetchBridge(face: FetchFace, onerror: (error: Error) => void): NodeServe {
  return async (req, res, body) => {
    let finished = false;
    const gone = new AbortController();
    res.on('close', () => {
      if (!finished) gone.abort();
    });
    if (res.destroyed) gone.abort();
    let response: Response;
    try {
      const auth = (req as http.IncomingMessage & { auth?: AuthInfo }).auth;
      response = await face.fetch(requestOf(req, gone.signal), { ...(auth !== undefined ? { authInfo: auth } : {}), parsedBody: body });
    } catch (err) {
      finished = true;
      onerror(err instanceof Error ? err : new Error(errorMessage(err)));
      return sendJson(res, 500, jsonRpcError(idOf(body), -32603, 'Internal server error'));
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    if (response.body === null || !isStream(response)) {
      const bytes = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
      finished = true;
      res.writeHead(response.status, headers);
      res.end(bytes);
      return;
    }
    res.writeHead(response.status, headers);
    await copyStream(response.body, res, gone.signal);
    finished = true;
    res.end();
  };
}

/** The web Request the entry reads: method, URL, headers and the client's going away; no body. */
function requestOf(req: http.IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const host = req.headers.host ?? 'localhost';
  return new Request(`http://${host}${req.url ?? '/'}`, { method: req.method ?? 'POST', headers, signal });
}

const isStream = (response: Response) => response.headers.get('content-type')?.startsWith('text/event-stream') === true;

/** Copies an SSE body to `res` as it comes, waiting for `drain` when the socket is full; cancels it when the client has gone. */
async function copyStream(body: ReadableStream<Uint8Array>, res: http.ServerResponse, gone: AbortSignal): Promise<void> {
  const reader = body.getReader();
  let drained: (() => void) | undefined;
  const release = () => {
    drained?.();
    drained = undefined;
  };
  const cancel = () => {
    release();
    reader.cancel().catch(() => {});
  };
  res.on('drain', release);
  gone.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone.aborted) break;
      if (!res.write(value) && !gone.aborted) await new Promise<void>((resolve) => (drained = resolve));
    }
  } catch {
    // the stream failed: the answer ends here, as the SDK's adapter ends it
  } finally {
    res.off('drain', release);
    gone.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}
