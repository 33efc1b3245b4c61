// The load test's clients, on plain fetch so every answer's X-Upstream (the replica nginx used) is
// seen: 2025 sessions calling the gateway's echo tool or running agent turns (codex, then codex-reply)
// on the echo model, and 2026-07-28 clients (no session): gateway calls, and calls whose tool asks the client, answered
// by a retry that may land on another replica.

/** One recorded request: when, how long, which replica, and how it ended. */
export function makeRecorder() {
  const rows = [];
  return {
    rows,
    async time(kind, fn) {
      const row = { kind, start: Date.now(), ms: 0, upstream: '', ok: false, error: '' };
      rows.push(row);
      try {
        await fn(row);
        row.ok = true;
      } catch (err) {
        row.error = err instanceof Error ? err.message : String(err);
      } finally {
        row.ms = Date.now() - row.start;
      }
      return row;
    },
  };
}

/** The JSON-RPC response with `id` from a POST answer (JSON, or SSE read to the end of that response). */
async function answerOf(res, id) {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/json')) return res.json();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended before the response');
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('');
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const msg = JSON.parse(data);
        if (msg.id === id && !('method' in msg)) return msg;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

export class Session2025 {
  constructor(url, token) {
    Object.assign(this, { url, token, sessionId: null, next: 1 });
  }

  headers() {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${this.token}`,
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': '2025-11-25' } : {}),
    };
  }

  async post(body, row) {
    const res = await fetch(this.url, { method: 'POST', headers: this.headers(), body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
    if (row) row.upstream = res.headers.get('x-upstream') ?? '';
    if (res.status >= 400) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return res;
  }

  async initialize(row) {
    const res = await this.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'loadtest', version: '1' } } }, row);
    this.sessionId = res.headers.get('mcp-session-id');
    await answerOf(res, 0);
    await (await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  }

  async request(method, params) {
    const id = this.next++;
    const msg = await answerOf(await this.post({ jsonrpc: '2.0', id, method, params }), id);
    if (msg.error) throw new Error(`JSON-RPC ${msg.error.code}: ${msg.error.message}`);
    return msg.result;
  }

  async call(name, args, row) {
    const id = this.next++;
    const res = await this.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, row);
    const msg = await answerOf(res, id);
    if (msg.error) throw new Error(`JSON-RPC ${msg.error.code}: ${msg.error.message}`);
    if (msg.result?.isError) throw new Error(`tool error: ${msg.result.content?.[0]?.text ?? ''}`);
    return msg.result;
  }
}

/** The 2026-07-28 per-request envelope: the revision, client info and capabilities ride in `_meta`. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'loadtest', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

async function post2026(url, token, method, name, params, row) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } }),
    signal: AbortSignal.timeout(60_000),
  });
  if (row) row.upstream = res.headers.get('x-upstream') ?? '';
  if (res.status >= 400) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const msg = await answerOf(res, 1);
  if (msg.error) throw new Error(`JSON-RPC ${msg.error.code}: ${msg.error.message}`);
  return msg.result;
}

/** A 2026-07-28 tools/call: no session. */
export async function call2026(url, token, name, args, row) {
  const result = await post2026(url, token, 'tools/call', name, { name, arguments: args }, row);
  if (result?.resultType === 'input_required') throw new Error('unexpected input_required result');
  if (result?.isError) throw new Error(`tool error: ${result.content?.[0]?.text ?? ''}`);
  return result;
}

/**
 * A 2026-07-28 call of the modern upstream's `deploy` tool, which asks its client to confirm: the first
 * round ends input_required, the retry carries the answer and the sealed requestState. Behind round
 * robin the retry usually lands on another replica than the one holding the waiting request.
 */
export async function ask2026(url, token, name, env, row) {
  const first = await post2026(url, token, 'tools/call', name, { name, arguments: { env } }, row);
  if (first?.resultType !== 'input_required' || typeof first.requestState !== 'string') throw new Error(`expected an input_required result, got ${JSON.stringify(first).slice(0, 200)}`);
  return first;
}

export async function retry2026(url, token, name, env, first, row) {
  const key = Object.keys(first.inputRequests ?? {})[0];
  const params = { name, arguments: { env }, requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } };
  const result = await post2026(url, token, 'tools/call', name, params, row);
  const text = result?.content?.[0]?.text ?? '';
  if (text !== `deployed to ${env}`) throw new Error(`the retry did not complete: ${JSON.stringify(result).slice(0, 200)}`);
  return result;
}

/** Whether the endpoint serves 2026-07-28 (`server/discover` without a session). */
export async function serves2026(url, token) {
  try {
    const result = await post2026(url, token, 'server/discover', undefined, {});
    return Array.isArray(result?.supportedVersions) && result.supportedVersions.includes('2026-07-28');
  } catch {
    return false;
  }
}
