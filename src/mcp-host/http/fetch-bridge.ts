// A Node request, its body already read and parsed by the host, handed to the SDK's web-standard
// serving entry (`handler.fetch`), and the entry's Response written back, through @hono/node-server's
// listener: the adapter the SDK's own Node session transport is built on. The SDK's `toNodeHandler`
// does the same with web `Request`s it builds whole, the parsed body re-serialized into a stream the
// entry never reads. Hono's requests build their parts when read; given the parsed body, the entry
// reads only the method, URL, headers and abort signal (a probe found no whole Request built). A
// Response the entry makes from a string is written as that string. Measured against our own bridge
// of the same round: the gateway's CPU per 2026-07-28 call about a fifth lower (docs/performance.md,
// fourteenth round).
// Hono makes its request and response classes the global ones, as the SDK's Node session transport
// has it do when the first 2025 session opens.
import type http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { errorMessage, jsonRpcError } from '../../util/index.js';
import { idOf } from './http-io.js';
import { markSseChunked } from './sse-chunked.js';

/** The SDK's serving entry, as `createMcpHandler` returns it. */
export interface FetchFace {
  fetch(request: Request, options?: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response>;
}

type NodeServe = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => Promise<void>;

/** What the bridge hangs on the Node request for the listener's callback: the parsed body and the caller. */
interface Carried {
  body: unknown;
  auth?: AuthInfo;
}
const CARRIED = Symbol('switchboard.parsed-request');
type CarryingRequest = http.IncomingMessage & { [CARRIED]?: Carried };

/** `(req, res, parsedBody)` over the entry; `onerror` hears a throw from it before the 500 goes out. */
export function fetchBridge(face: FetchFace, onerror: (error: Error) => void): NodeServe {
  const listener = getRequestListener(async (request, env) => {
    const { body, auth } = (env.incoming as CarryingRequest)[CARRIED]!;
    try {
      // An SSE answer marked chunked starts at once: hono holds back one that is not for a timer tick, hoping to learn its length.
      return markSseChunked(await face.fetch(request, { ...(auth !== undefined ? { authInfo: auth } : {}), parsedBody: body }));
    } catch (err) {
      onerror(err instanceof Error ? err : new Error(errorMessage(err)));
      return Response.json(jsonRpcError(idOf(body), -32603, 'Internal server error'), { status: 500 });
    }
  });
  return (req, res, body) => {
    const auth = (req as http.IncomingMessage & { auth?: AuthInfo }).auth;
    (req as CarryingRequest)[CARRIED] = { body, ...(auth !== undefined ? { auth } : {}) };
    return listener(req, res);
  };
}
