// `mcp-server --http` observed: one codex call is one trace (the call's server span, the agent turn,
// its model requests, with the trace context in the provider's `traceparent` header, and its tool
// call), and /metrics counts the turn, its outcome and the model's tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { makeServerHome, spawnHttpServer, type ServerHome } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { waitFor } from '../support/wait.js';

const TOKEN = 'agent-observability-token-abcdefgh';

describe('mcp-server --http: traces and metrics of a turn', () => {
  let model: FakeModelServer;
  let sh: ServerHome;
  let receiver: OtlpReceiver;
  let server: Awaited<ReturnType<typeof spawnHttpServer>>;

  beforeAll(async () => {
    model = await startFakeModelServer();
    receiver = await startOtlpReceiver();
    sh = await makeServerHome(model);
    server = await spawnHttpServer(sh, [], { SWITCHBOARD_MCP_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' });
  });

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await model?.close();
    await sh?.cleanup();
  });

  it('traces the call, the turn, the model requests and the tool call, and counts them', async () => {
    model.enqueue(responsesTurn({ calls: [{ id: 'c1', name: 'update_plan', args: { plan: [{ step: 'look', status: 'pending' }] } }] }), responsesTurn({ text: 'done' }));
    const client = new Client({ name: 'observability-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    try {
      const result = await client.callTool({ name: 'codex', arguments: { prompt: 'plan it', cwd: sh.work } });
      expect(result.isError).not.toBe(true);
    } finally {
      await client.close();
    }

    const spans = await waitFor(() => {
      const call = receiver.spans.find((s) => s.kind === 2 && s.name === 'tools/call codex');
      const turn = receiver.spans.find((s) => s.name === 'invoke_agent switchboard');
      const chats = receiver.spans.filter((s) => s.name === 'chat mock-model');
      const tool = receiver.spans.find((s) => s.name === 'execute_tool update_plan');
      return call && turn && chats.length === 2 && tool && { call, turn, chats, tool };
    }, `the call's spans; received: ${receiver.spans.map((s) => s.name).join(', ')}`);
    expect(spans.turn.traceId).toBe(spans.call.traceId);
    expect(spans.turn.parentSpanId).toBe(spans.call.spanId);
    expect(spans.turn.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': 'mock-model', 'switchboard.turn.outcome': 'completed' });
    for (const chat of spans.chats) {
      expect(chat.parentSpanId).toBe(spans.turn.spanId);
      expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 });
    }
    expect(spans.tool.parentSpanId).toBe(spans.turn.spanId);
    // The model provider was sent the context of the request's span.
    expect(new Set(model.requests.map((r) => r.headers.traceparent))).toEqual(new Set(spans.chats.map((c) => `00-${c.traceId}-${c.spanId}-01`)));

    const metrics = await (await fetch(new URL('/metrics', server.url), { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const lines = metrics.split('\n');
    expect(lines).toContain('switchboard_agent_turns_total{outcome="completed"} 1');
    expect(lines).toContain('switchboard_agent_turns_running 0');
    expect(lines).toContain('switchboard_model_tokens_total{model="mock-model",type="input"} 20');
    expect(lines).toContain('switchboard_model_tokens_total{model="mock-model",type="output"} 10');
    expect(lines).toContain('gen_ai_client_operation_duration_seconds_count{model="mock-model",outcome="ok"} 2');
  });
});
