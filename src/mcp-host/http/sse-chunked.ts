// The one mark that makes hono's Node adapter start an SSE response at once (sse-at-once.ts).
/**
 * Marks an SSE response `Transfer-Encoding: chunked`, so that hono's Node adapter starts it at once.
 * It reads the headers only. Hono's Response (the global one once a listener is made) keeps what it
 * was built from and writes a string body as it is; reading its `body` builds a whole web Response,
 * which hono then streams: a ReadableStream and a reader per answer, JSON ones too, that outlived
 * young collections (docs/performance.md, "Issue 37, sixteenth round").
 */
export function markSseChunked(response: Response): Response {
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) response.headers.set('transfer-encoding', 'chunked');
  return response;
}
