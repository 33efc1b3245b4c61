// A hand-driven Streamable HTTP session (fetch + a small SSE reader), for what SDK clients hide:
// status codes, headers, dropped streams and Last-Event-ID resumption.

export interface SseEvent {
  id?: string;
  data: string;
  /** The JSON-RPC message, when data is one. */
  message?: Record<string, unknown> & { id?: unknown; method?: string; params?: Record<string, unknown> };
}

/** Reads SSE events from a response body; stop by breaking out (the stream is cancelled). */
export async function* readSse(res: Response): AsyncGenerator<SseEvent> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) event.id = line.slice(3).trim();
          else if (line.startsWith('data:')) event.data += line.slice(5).trimStart();
        }
        if (event.data !== '') {
          try {
            event.message = JSON.parse(event.data) as SseEvent['message'];
          } catch {
            // not JSON: keep the raw data
          }
        }
        if (event.data !== '' || event.id !== undefined) yield event;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

export class RawHttpSession {
  sessionId: string | null = null;
  private nextId = 1;

  constructor(
    readonly url: string,
    private readonly token: string | null,
    private readonly protocolVersion = '2025-11-25',
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': this.protocolVersion } : {}),
      ...extra,
    };
  }

  post(body: unknown, init: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<Response> {
    return fetch(this.url, { method: 'POST', headers: this.headers(init.headers), body: JSON.stringify(body), ...(init.signal ? { signal: init.signal } : {}) });
  }

  /** initialize + notifications/initialized; returns the initialize response. */
  async initialize(capabilities: Record<string, unknown> = { elicitation: {} }): Promise<Record<string, unknown>> {
    const res = await this.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: this.protocolVersion, capabilities, clientInfo: { name: 'raw', version: '0' } } });
    if (res.status !== 200) throw new Error(`initialize: HTTP ${res.status} ${await res.text()}`);
    this.sessionId = res.headers.get('mcp-session-id');
    const response = await this.responseOn(res, 0);
    await (await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
    return response;
  }

  /** The JSON-RPC response with `id` from a POST answer (JSON or SSE). */
  async responseOn(res: Response, id: unknown): Promise<Record<string, unknown>> {
    if ((res.headers.get('content-type') ?? '').includes('application/json')) return (await res.json()) as Record<string, unknown>;
    for await (const ev of readSse(res)) if (ev.message && ev.message.id === id && !('method' in ev.message)) return ev.message;
    throw new Error(`stream ended without a response to ${String(id)}`);
  }

  async request(method: string, params: Record<string, unknown> = {}, id: string | number = this.nextId++): Promise<Record<string, unknown>> {
    const res = await this.post({ jsonrpc: '2.0', id, method, params });
    return this.responseOn(res, id);
  }

  async notify(method: string, params: Record<string, unknown> = {}): Promise<number> {
    const res = await this.post({ jsonrpc: '2.0', method, params });
    await res.text();
    return res.status;
  }

  /** POST a JSON-RPC response (to a server→client request such as elicitation/create). */
  async notifyResponse(id: unknown, result: unknown): Promise<number> {
    const res = await this.post({ jsonrpc: '2.0', id, result });
    await res.text();
    return res.status;
  }

  async close(): Promise<void> {
    if (!this.sessionId) return;
    await fetch(this.url, { method: 'DELETE', headers: this.headers() }).then((r) => r.text()).catch(() => {});
    this.sessionId = null;
  }
}

/**
 * One raw 2025 POST (`message` with `jsonrpc` added), with the session's headers when `session` is given:
 * for tests that look at the bytes a host answers with.
 */
export function post2025(url: string, message: object, session?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}
