// The turn loop against the fake model server: tool calls, ordering, queueing, failures, retries.
import { describe, expect, it } from 'vitest';
import { chatTurn, responsesTurn, rsp } from '../fixtures/fake-model-server.js';
import { crashingTool, echoTool } from '../fixtures/test-tools.js';
import { agentTestBed, EventReader, text, type Harness } from '../support/agent-harness.js';

const bed = agentTestBed();
let h: Harness;

type Item = Record<string, unknown>;
const input = (n: number) => bed.server.requests[n]!.body.input as Item[];

describe('a turn', () => {
  it('calls a tool, feeds its output back, and completes with the final answer', async () => {
    h = await bed.harness({ tools: [echoTool], raw: { developer_instructions: 'Always be terse.', base_instructions: 'BASE RULES' } });
    bed.server.enqueue(responsesTurn({ text: 'Let me echo.', calls: [{ id: 'call_1', name: 'echo', args: { text: 'hi' } }] }), responsesTurn({ text: 'Done: echo: hi' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const turnId = await thread.submit(text('say hi'));
    const end = await events.turnEnd(turnId);
    expect(end).toMatchObject({ type: 'task_complete', last_agent_message: 'Done: echo: hi' });

    const types = events.types();
    expect(types[0]).toBe('session_configured');
    expect(types.slice(1, 3)).toEqual(['task_started', 'user_message']);
    expect(types).toContain('agent_message_delta');
    expect(types.filter((t) => t === 'agent_message')).toHaveLength(2);
    expect(types.filter((t) => t === 'token_count')).toHaveLength(2);
    expect(types.at(-1)).toBe('task_complete');
    // every event of the turn carries the submission id
    expect(events.seen.slice(1).every((e) => e.id === turnId)).toBe(true);
    const tokens = events.seen.filter((e) => e.msg.type === 'token_count').at(-1)!.msg;
    expect(tokens).toMatchObject({ info: { total_token_usage: { total_tokens: 30 }, last_token_usage: { total_tokens: 15 } } });

    expect(bed.server.requests).toHaveLength(2);
    const first = bed.server.requests[0]!.body;
    expect(first.instructions).toBe('BASE RULES');
    expect((first.tools as Item[]).map((t) => t.name)).toEqual(['echo']);
    const dev = input(0).filter((i) => i.role === 'developer').map((i) => JSON.stringify(i.content));
    expect(dev.some((d) => d.includes('sandbox_mode'))).toBe(true);
    expect(dev.some((d) => d.includes('Always be terse.'))).toBe(true);
    expect(input(1).slice(-3)).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me echo.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'echo', arguments: '{"text":"hi"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'echo: hi' },
    ]);
    expect(bed.server.unexpected).toBe(0);
  });

  it('runs several calls of one response in order and tells the model about unknown tools and bad JSON', async () => {
    h = await bed.harness({ tools: [echoTool] });
    bed.server.enqueue(
      responsesTurn({
        calls: [
          { id: 'a', name: 'echo', args: { text: 'one' } },
          { id: 'b', name: 'nope', args: {} },
          { id: 'c', name: 'echo', args: '{not json' },
          { id: 'd', name: 'echo', args: { text: 'two' } },
        ],
      }),
      responsesTurn({ text: 'ok' }),
    );
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    await events.turnEnd(await thread.submit(text('go')));
    const outputs = input(1).filter((i) => i.type === 'function_call_output');
    expect(outputs.map((o) => o.call_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(outputs[0]!.output).toBe('echo: one');
    expect(outputs[1]!.output).toBe('unsupported call: nope');
    expect(String(outputs[2]!.output)).toMatch(/^failed to parse function arguments: /);
    expect(outputs[3]!.output).toBe('echo: two');
  });

  it('queues a second user_input while a turn runs and runs it next', async () => {
    h = await bed.harness();
    bed.server.enqueue({ kind: 'responses', events: [rsp.created(), rsp.textDelta('slow')], dropAfter: 2, drop: 'end' }, responsesTurn({ text: 'first answer' }), responsesTurn({ text: 'second answer' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const t1 = await thread.submit(text('one'));
    const t2 = await thread.submit(text('two'));
    expect(await events.turnEnd(t1)).toMatchObject({ last_agent_message: 'first answer' });
    expect(await events.turnEnd(t2)).toMatchObject({ last_agent_message: 'second answer' });
    const started = events.seen.filter((e) => e.msg.type === 'task_started').map((e) => e.id);
    expect(started).toEqual([t1, t2]);
    // the second turn's request carries the first turn
    expect(input(2).filter((i) => i.role === 'user').map((i) => JSON.stringify(i.content))).toEqual([expect.stringContaining('one'), expect.stringContaining('two')]);
  });

  it('uses the submission id the caller chose as event id and turn id', async () => {
    h = await bed.harness();
    bed.server.enqueue(responsesTurn({ text: 'hi' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    expect(await thread.submit(text('x'), { id: '42' })).toBe('42');
    expect(await events.turnEnd('42')).toMatchObject({ turn_id: '42' });
    expect(events.seen.filter((e) => e.msg.type === 'task_started')[0]).toMatchObject({ id: '42' });
  });

  it('runs several threads at once', async () => {
    h = await bed.harness();
    bed.server.enqueue(responsesTurn({ text: 'same' }), responsesTurn({ text: 'same' }), responsesTurn({ text: 'same' }));
    const threads = await Promise.all([h.manager.start(), h.manager.start(), h.manager.start()]);
    expect(new Set(threads.map((t) => t.id)).size).toBe(3);
    const ends = await Promise.all(
      threads.map(async (t) => {
        const r = new EventReader(t);
        return r.turnEnd(await t.submit(text(`hello from ${t.id}`)));
      }),
    );
    expect(ends.every((e) => e.type === 'task_complete')).toBe(true);
    expect(h.manager.find(threads[1]!.id)).toBe(threads[1]);
  });
});

describe('model failures', () => {
  it('retries a stream dropped mid-turn, announcing it with stream_error', async () => {
    h = await bed.harness();
    const turn = responsesTurn({ text: 'a long first answer' }) as { kind: 'responses'; events: object[] };
    bed.server.enqueue({ ...turn, dropAfter: 3 }, responsesTurn({ text: 'the answer' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const end = await events.turnEnd(await thread.submit(text('q')));
    expect(end).toMatchObject({ type: 'task_complete', last_agent_message: 'the answer' });
    const errors = events.seen.filter((e) => e.msg.type === 'stream_error').map((e) => (e.msg as { message: string }).message);
    expect(errors).toEqual([expect.stringMatching(/^Reconnecting\.\.\. 1\/2/)]);
    expect(bed.server.requests).toHaveLength(2);
    // the broken attempt left nothing in the conversation
    expect(thread.conversation().filter((i) => i.type === 'message' && i.role === 'assistant')).toHaveLength(1);
  });

  it('retries 429 and 500 with one stream_error each', async () => {
    h = await bed.harness();
    bed.server.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '0' } }, { kind: 'status', status: 500 }, responsesTurn({ text: 'finally' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const end = await events.turnEnd(await thread.submit(text('q')));
    expect(end).toMatchObject({ type: 'task_complete', last_agent_message: 'finally' });
    expect(events.types().filter((t) => t === 'stream_error')).toHaveLength(2);
  });

  it('ends the turn with an error event on a hard failure, and the thread takes the next input', async () => {
    h = await bed.harness({ provider: { request_max_retries: 0 } });
    bed.server.enqueue({ kind: 'status', status: 500, body: { error: { message: 'upstream exploded', type: 'server_error' } } }, responsesTurn({ text: 'recovered' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const t1 = await thread.submit(text('q1'));
    const err = await events.until('error');
    expect(err.message).toContain('upstream exploded');
    expect(await events.turnEnd(t1)).toMatchObject({ type: 'task_complete', error: { message: err.message } });
    expect(await events.turnEnd(await thread.submit(text('q2')))).toMatchObject({ last_agent_message: 'recovered' });
  });

  it('reports a missing API key naming the variable, without contacting the model', async () => {
    h = await bed.harness({ env: {} });
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const t1 = await thread.submit(text('q'));
    expect((await events.until('error')).message).toContain('Missing environment variable: `MOCK_KEY`');
    await events.turnEnd(t1);
    expect(bed.server.requests).toHaveLength(0);
  });

  it('ends the turn with an error when a tool throws, keeping the conversation valid', async () => {
    h = await bed.harness({ tools: [crashingTool] });
    bed.server.enqueue(responsesTurn({ calls: [{ id: 'x', name: 'crash', args: {} }] }), responsesTurn({ text: 'next' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    await events.turnEnd(await thread.submit(text('q')));
    expect((events.seen.find((e) => e.msg.type === 'error')!.msg as { message: string }).message).toContain('kaboom');
    await events.turnEnd(await thread.submit(text('again')));
    expect(input(1).filter((i) => i.type === 'function_call_output')).toEqual([{ type: 'function_call_output', call_id: 'x', output: 'tool crash failed: kaboom' }]);
  });
});

describe('Chat Completions wire', () => {
  it('runs a tool round trip over wire_api = "chat"', async () => {
    h = await bed.harness({ tools: [echoTool], provider: { wire_api: 'chat' } });
    bed.server.enqueue(chatTurn({ calls: [{ id: 'c1', name: 'echo', args: { text: 'chat' } }] }), chatTurn({ text: 'chat done' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    expect(await events.turnEnd(await thread.submit(text('q')))).toMatchObject({ last_agent_message: 'chat done' });
    expect(bed.server.requests.map((r) => r.url)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    const messages = bed.server.requests[1]!.body.messages as Item[];
    expect(messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: '{"text":"chat"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'echo: chat' },
    ]);
  });
});
