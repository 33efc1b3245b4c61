// A 2025 session's transport: the SDK's web-standard Streamable HTTP transport, with Node requests
// handed to it through the same bridge as the 2026-07-28 leg's (fetch-bridge.ts). The SDK's Node
// transport wraps the same web transport in @hono/node-server, which held back an SSE answer for a
// timer tick hoping to learn its length (issue 14) and rebuilt each request's body as a stream the
// transport never reads, since the host hands it the parsed body.
import type http from 'node:http';
import { WebStandardStreamableHTTPServerTransport, type WebStandardStreamableHTTPServerTransportOptions } from '@modelcontextprotocol/server';
import { fetchBridge } from './fetch-bridge.js';

export class SessionTransport {
  /** The SDK's transport: the session's MCP server connects to it, and an adopted session replays its initialize on it. */
  readonly web: WebStandardStreamableHTTPServerTransport;
  private readonly serve: ReturnType<typeof fetchBridge>;

  constructor(options: WebStandardStreamableHTTPServerTransportOptions, onerror: (error: Error) => void) {
    const web = new WebStandardStreamableHTTPServerTransport(options);
    this.web = web;
    this.serve = fetchBridge({ fetch: (request, opts) => web.handleRequest(request, opts) }, onerror);
  }

  get sessionId(): string | undefined {
    return this.web.sessionId;
  }

  /** Serves one request of the session; `body` is the JSON the host parsed (undefined for GET and DELETE). */
  handleRequest(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    return this.serve(req, res, body);
  }
}
