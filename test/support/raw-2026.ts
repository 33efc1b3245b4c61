// One raw 2026-07-28 request as the revision's clients send it (its headers and `_meta` envelope),
// for tests that need what an SDK client hides: the HTTP status and headers, a tampered retry.

export const ENVELOPE_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

export interface Raw2026Request {
  id: number;
  method: string;
  /** Without `_meta`: the envelope (and `meta`) are added. */
  params: Record<string, unknown>;
  /** The `Mcp-Name` header (the tool, prompt or resource the request names). */
  name: string;
  token?: string;
  headers?: Record<string, string>;
  /** More `_meta` entries beside the envelope (trace context, ...). */
  meta?: Record<string, unknown>;
}

/** POSTs the request; the HTTP response and its JSON-RPC answer (a JSON body, or an SSE stream's last data line). */
export async function post2026<A = { result?: Record<string, unknown>; error?: { code: number; message: string } }>(url: string, request: Raw2026Request): Promise<{ response: Response; answer: A }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': request.method,
      'mcp-name': request.name,
      ...request.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: request.id, method: request.method, params: { ...request.params, _meta: { ...ENVELOPE_2026, ...request.meta } } }),
  });
  const body = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream') ? body.split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6) : body;
  return { response, answer: JSON.parse(json) as A };
}

/** Each JSON-RPC message a stdio server writes on `stdout` (one per line), as it arrives. */
export function onStdioMessages(stdout: NodeJS.ReadableStream, onMessage: (message: { id?: number } & Record<string, unknown>) => void): void {
  let buffered = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      onMessage(JSON.parse(line) as { id?: number } & Record<string, unknown>);
    }
  });
}
