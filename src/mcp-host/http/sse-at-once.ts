// SSE responses that start at once, on 2025 session transports and on the 2026-07-28 leg's bridge
// (fetch-bridge.ts). The SDK's Node adapter (@hono/node-server) holds back a response that is not
// marked chunked for a timer tick (>= 1 ms) hoping to learn its length; an SSE answer that came back
// sooner waited for that tick on every call (issue 14). A 2025 session's answer to a request is
// first held for a moment, to go out as one JSON body when it is quick (quick-answers.ts).
import { NodeStreamableHTTPServerTransport, type StreamableHTTPServerTransportOptions } from '@modelcontextprotocol/node';
import { MemoryEventStore } from './memory-event-store.js';
import { jsonWhenQuick, loneRequestId } from './quick-answers.js';
import { markSseChunked } from './sse-chunked.js';

export type { NodeStreamableHTTPServerTransport };

interface WebTransport {
  handleRequest(request: Request, options?: { parsedBody?: unknown }): Promise<Response>;
}

let sdkChangeTold = false;

/** A Node session transport with {@link streamSseAtOnce}; `warn` hears once per process if the SDK no longer allows it. */
export function sseTransport(options: StreamableHTTPServerTransportOptions, warn: (message: string) => void): NodeStreamableHTTPServerTransport {
  const transport = new NodeStreamableHTTPServerTransport(options);
  // Events of an answer sent as JSON are dropped from this replica's memory; the shared store keeps
  // them (deleting them would cost a database round trip per call) until its bounds drop them.
  const store = options.eventStore;
  const forget = store instanceof MemoryEventStore ? (ids: string[]) => ids.forEach((id) => store.drop(id)) : undefined;
  if (!streamSseAtOnce(transport, forget) && !sdkChangeTold) {
    sdkChangeTold = true;
    warn('the MCP SDK changed: SSE responses wait a timer tick before they start (src/mcp-host/http/sse-at-once.ts)');
  }
  return transport;
}

/**
 * Marks the transport's SSE responses `Transfer-Encoding: chunked`, and sends the answer to a POST of
 * one request as JSON when it is quick ({@link jsonWhenQuick}; `forget` drops the events kept for
 * it); false when the SDK no longer has the inner transport this reaches for.
 */
export function streamSseAtOnce(transport: NodeStreamableHTTPServerTransport, forget?: (eventIds: string[]) => void): boolean {
  // Private in the SDK's types: the Node adapter offers no hook between the Web transport and hono.
  const web = (transport as unknown as { _webStandardTransport?: WebTransport })._webStandardTransport;
  if (typeof web?.handleRequest !== 'function') return false;
  const handle = web.handleRequest.bind(web);
  // a const: see hear() in rpc/transport-decorator.ts
  const marked: WebTransport['handleRequest'] = async (request, options) => {
    const id = request.method === 'POST' ? loneRequestId(options?.parsedBody) : undefined;
    const response = await handle(request, options);
    return id === undefined ? markSseChunked(response) : jsonWhenQuick(response, id, { forget });
  };
  web.handleRequest = marked;
  return true;
}
