// The model client against the fake model server: both wire APIs, retries, failures, headers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILT_IN_PROVIDERS, parseModelProvider } from '../../src/config/index.js';
import { OpenAIModelClient, type ModelRequest, type ResponseEvent } from '../../src/core/index.js';
import { isSwitchboardError } from '../../src/util/index.js';
import { chatTurn, responsesTurn, rsp, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';

let server: FakeModelServer;
beforeEach(async () => {
  server = await startFakeModelServer();
});
afterEach(async () => {
  await server.close();
});

const request: ModelRequest = {
  model: 'mock-model',
  instructions: 'be brief',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
  tools: [{ name: 'echo', description: 'echo', parameters: { type: 'object', properties: {} } }],
  threadId: 't1',
};

function client(extra: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = { TEST_KEY: 'sk-test' }) {
  const provider = parseModelProvider('mock', { base_url: server.url, env_key: 'TEST_KEY', request_max_retries: 2, stream_max_retries: 2, ...extra });
  return new OpenAIModelClient(provider, { env, retryBaseDelayMs: 5 });
}

async function collect(stream: AsyncIterable<ResponseEvent>): Promise<ResponseEvent[]> {
  const out: ResponseEvent[] = [];
  for await (const ev of stream) out.push(ev);
  return out;
}

describe('Responses API', () => {
  it('streams deltas, output items and usage, sending the request Codex sends', async () => {
    server.enqueue(responsesTurn({ text: 'hello there', calls: [{ id: 'c1', name: 'echo', args: { a: 1 } }, { id: 'c2', name: 'echo', args: {} }] }));
    const events = await collect(client({ query_params: { 'api-version': '7' }, http_headers: { 'x-fixed': 'v' }, env_http_headers: { 'x-env': 'HDR' } }, { TEST_KEY: 'sk-test', HDR: 'from-env' }).stream(request, { signal: new AbortController().signal }));
    const deltas = events.filter((e) => e.type === 'output_text_delta').map((e) => (e as { delta: string }).delta).join('');
    expect(deltas).toBe('hello there');
    const items = events.filter((e) => e.type === 'output_item_done').map((e) => (e as { item: { type: string } }).item.type);
    expect(items).toEqual(['message', 'function_call', 'function_call']);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'completed', usage: { input_tokens: 10, cached_input_tokens: 2, output_tokens: 5, reasoning_output_tokens: 1, total_tokens: 15 } });
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/responses?api-version=7');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.headers['x-fixed']).toBe('v');
    expect(req.headers['x-env']).toBe('from-env');
    expect(req.body).toMatchObject({ model: 'mock-model', instructions: 'be brief', stream: true, store: false, tool_choice: 'auto' });
    expect(req.body.tools).toEqual([{ type: 'function', name: 'echo', description: 'echo', parameters: { type: 'object', properties: {} }, strict: false }]);
  });

  it('retries 429 and 500 with a retrying event each, then succeeds', async () => {
    server.enqueue(
      { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
      { kind: 'status', status: 500 },
      responsesTurn({ text: 'ok' }),
    );
    const events = await collect(client().stream(request, { signal: new AbortController().signal }));
    const retries = events.filter((e) => e.type === 'retrying');
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatchObject({ attempt: 1, maxAttempts: 2, budget: 'request', delayMs: 0 });
    expect(retries[1]).toMatchObject({ attempt: 2, budget: 'request' });
    expect(events.at(-1)?.type).toBe('completed');
    expect(server.requests).toHaveLength(3);
  });

  it.each(['reset', 'end'] as const)('retries a stream dropped mid-way (%s) against the stream budget', async (drop) => {
    const turn = responsesTurn({ text: 'first attempt text' });
    server.enqueue({ ...(turn as { kind: 'responses'; events: object[] }), dropAfter: 3, drop }, responsesTurn({ text: 'second' }));
    const events = await collect(client().stream(request, { signal: new AbortController().signal }));
    const retry = events.find((e) => e.type === 'retrying');
    expect(retry).toMatchObject({ budget: 'stream', attempt: 1 });
    expect(events.at(-1)?.type).toBe('completed');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after request_max_retries with a hard ModelError', async () => {
    server.enqueue({ kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 503 });
    const err = await collect(client().stream(request, { signal: new AbortController().signal })).catch((e: unknown) => e);
    expect(isSwitchboardError(err)).toBe(true);
    expect((err as Error).message).toMatch(/^exceeded retry limit, last status: 503/);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 and says what the server said', async () => {
    server.enqueue({ kind: 'status', status: 400, body: { error: { message: 'bad tool schema', type: 'invalid_request_error' } } });
    const err = await collect(client().stream(request, { signal: new AbortController().signal })).catch((e: unknown) => e);
    expect((err as Error).message).toContain('bad tool schema');
    expect(server.requests).toHaveLength(1);
  });

  it('treats response.failed with a quota code as fatal and other codes as retryable', async () => {
    server.enqueue({ kind: 'responses', events: [rsp.created(), rsp.failed('server_error', 'try again')] }, { kind: 'responses', events: [rsp.created(), rsp.failed('insufficient_quota', 'no credit')] });
    const events: ResponseEvent[] = [];
    const err = await (async () => {
      for await (const ev of client().stream(request, { signal: new AbortController().signal })) events.push(ev);
    })().catch((e: unknown) => e);
    expect(events.filter((e) => e.type === 'retrying')).toHaveLength(1);
    expect((err as Error).message).toMatch(/^Quota exceeded/);
  });

  it('names the missing environment variable', async () => {
    const err = await collect(client({}, {}).stream(request, { signal: new AbortController().signal })).catch((e: unknown) => e);
    expect(isSwitchboardError(err, 'missing_api_key')).toBe(true);
    expect((err as Error).message).toContain('`TEST_KEY`');
    expect(server.requests).toHaveLength(0);
  });

  it('aborts a hanging stream promptly when the signal fires', async () => {
    server.enqueue({ kind: 'responses', events: [rsp.created(), rsp.textDelta('partial')], hang: true });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const ev of client().stream(request, { signal: controller.signal })) {
        seen.push(ev.type);
        if (ev.type === 'output_text_delta') controller.abort(new Error('stop'));
      }
    })();
    await expect(run).rejects.toThrow('stop');
    expect(seen).toEqual(['created', 'output_text_delta']);
  });

  it('retries a stream that goes idle past stream_idle_timeout_ms', async () => {
    server.enqueue({ kind: 'responses', events: [rsp.created()], hang: true }, responsesTurn({ text: 'after idle' }));
    const events = await collect(client({ stream_idle_timeout_ms: 300 }).stream(request, { signal: new AbortController().signal }));
    expect(events.find((e) => e.type === 'retrying')).toMatchObject({ budget: 'stream', message: expect.stringContaining('idle timeout') });
    expect(events.at(-1)?.type).toBe('completed');
  });
});

describe('Chat Completions (wire_api = "chat")', () => {
  it('aggregates streamed tool-call fragments and converts the conversation to messages', async () => {
    server.enqueue(chatTurn({ text: 'calling', reasoning: 'think', calls: [{ id: 'c1', name: 'echo', args: { text: 'abc' } }] }));
    const chatRequest: ModelRequest = {
      ...request,
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev' }] },
        ...request.input,
        { type: 'function_call', call_id: 'c0', name: 'echo', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c0', output: 'zero' },
      ],
    };
    const events = await collect(client({ wire_api: 'chat' }).stream(chatRequest, { signal: new AbortController().signal }));
    expect(events.filter((e) => e.type === 'reasoning_delta')).toHaveLength(1);
    const items = events.filter((e) => e.type === 'output_item_done').map((e) => (e as { item: unknown }).item);
    expect(items).toEqual([
      { type: 'reasoning', summary: ['think'] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling' }] },
      { type: 'function_call', call_id: 'c1', name: 'echo', arguments: '{"text":"abc"}' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'completed', usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 } });
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'system', content: 'dev' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c0', type: 'function', function: { name: 'echo', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c0', content: 'zero' },
    ]);
    expect(req.body.tools).toEqual([{ type: 'function', function: { name: 'echo', description: 'echo', parameters: { type: 'object', properties: {} } } }]);
  });

  it('retries a chat stream cut before finish_reason', async () => {
    const turn = chatTurn({ text: 'abcdefghijklmnop' }) as { kind: 'chat'; chunks: object[] };
    server.enqueue({ ...turn, dropAfter: 2, drop: 'end' }, chatTurn({ text: 'fine' }));
    const events = await collect(client({ wire_api: 'chat' }).stream(request, { signal: new AbortController().signal }));
    expect(events.filter((e) => e.type === 'retrying')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('completed');
  });

  it('sends no Authorization header for a provider without env_key (the oss built-in)', async () => {
    server.enqueue(chatTurn({ text: 'local' }));
    const oss = { ...BUILT_IN_PROVIDERS.oss!, base_url: server.url };
    await collect(new OpenAIModelClient(oss, { env: {} }).stream(request, { signal: new AbortController().signal }));
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });
});
