// Tool search in the agent, with the fake model and real in-process MCP servers: the model searches,
// gets a tool, calls it in the same turn and again in a resumed thread (from the rollout); `off` and
// `auto` under the threshold send every tool as before; always_loaded servers are never deferred.
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIModelClient, ThreadManager } from '../../src/core/index.js';
import { responsesTurn } from '../fixtures/fake-model-server.js';
import { connectInProcess, createDemoServer, type InProcessMcp } from '../fixtures/in-process-mcp.js';
import { agentTestBed, EventReader, text, type Harness } from '../support/agent-harness.js';

const bed = agentTestBed();
let mcp: InProcessMcp;
beforeEach(async () => {
  mcp = await connectInProcess({ demo: () => createDemoServer({ cancelled: 0 }), second: () => createDemoServer({ cancelled: 0 }) });
});
afterEach(async () => {
  await mcp.close();
});

type Item = Record<string, unknown>;
const toolNames = (n: number) => (bed.server.requests[n]!.body.tools as Item[]).map((t) => t.name as string);
const outputs = (n: number) => (bed.server.requests[n]!.body.input as Item[]).filter((i) => i.type === 'function_call_output').map((i) => i.output as string);
const ALL_DEMO = ['mcp__demo__ask', 'mcp__demo__broken', 'mcp__demo__echo', 'mcp__demo__picture', 'mcp__demo__slow', 'mcp__demo__weather'];

async function harness(raw: Record<string, unknown>): Promise<Harness> {
  return bed.harness({ mcp: mcp.source, raw });
}

describe('tool search in the agent', () => {
  it('searches, gets a tool and calls it in the same turn, and again in a resumed thread', async () => {
    const h = await harness({ tool_search: 'on' });
    bed.server.enqueue(
      responsesTurn({ calls: [{ id: 's1', name: 'tool_search', args: { query: 'echo text', limit: 3 } }] }),
      responsesTurn({ calls: [{ id: 'c1', name: 'mcp__demo__echo', args: { text: 'hi' } }] }),
      responsesTurn({ text: 'done' }),
    );
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    await events.turnEnd(await thread.submit(text('say hi through the demo server')));

    // First request: built-in resource tools and tool_search, no deferred MCP tool.
    const first = toolNames(0);
    expect(first).toEqual(expect.arrayContaining(['list_mcp_resources', 'read_mcp_resource', 'tool_search']));
    expect(first.filter((n) => n.startsWith('mcp__'))).toEqual([]);
    const search = (bed.server.requests[0]!.body.tools as Item[]).find((t) => t.name === 'tool_search')!;
    expect(search.description).toContain('- demo (6 tools): ask, broken, echo, picture, slow, weather');
    expect(search.description).toContain('- second (6 tools)');

    // The search result names the tool with its schema; the next request of the same turn offers it.
    const found = JSON.parse(outputs(1)[0]!) as { tools: { name: string; parameters: Item }[] };
    expect(found.tools.map((t) => t.name)).toContain('mcp__demo__echo');
    expect(found.tools.find((t) => t.name === 'mcp__demo__echo')!.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    const second = toolNames(1);
    expect(second).toContain('mcp__demo__echo');
    expect(second).toContain('tool_search');
    expect(outputs(2)).toEqual([outputs(1)[0], JSON.stringify([{ type: 'text', text: 'demo says hi' }])]);

    // The search and its output are in the rollout.
    const rollout = (await readFile(thread.rolloutPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Item);
    expect(rollout.some((l) => l.type === 'response_item' && (l.payload as Item).type === 'function_call' && (l.payload as Item).name === 'tool_search')).toBe(true);
    await thread.shutdown();

    // A later process resumes the thread: the found tool is offered at once and can be called.
    const other = new ThreadManager({
      home: h.home,
      config: h.config,
      mcp: mcp.source,
      createModelClient: (p) => new OpenAIModelClient(p, { env: { MOCK_KEY: 'k' }, retryBaseDelayMs: 5 }),
    });
    try {
      bed.server.enqueue(responsesTurn({ calls: [{ id: 'c2', name: 'mcp__demo__echo', args: { text: 'again' } }] }), responsesTurn({ text: 'done again' }));
      const resumed = await other.resume(thread.id);
      const e2 = new EventReader(resumed);
      await e2.turnEnd(await resumed.submit(text('once more')));
      const afterResume = toolNames(3);
      // Exactly the tools the search returned, from the rollout's conversation.
      expect(afterResume.filter((n) => n.startsWith('mcp__')).sort()).toEqual(found.tools.map((t) => t.name).sort());
      expect(afterResume).toContain('mcp__demo__echo');
      expect(outputs(4).at(-1)).toBe(JSON.stringify([{ type: 'text', text: 'demo says again' }]));
    } finally {
      await other.shutdown();
    }
  });

  it('with tool_search = "off" the request carries every tool, as before', async () => {
    const h = await harness({ tool_search: 'off' });
    bed.server.enqueue(responsesTurn({ text: 'ok' }));
    const thread = await h.manager.start();
    await new EventReader(thread).turnEnd(await thread.submit(text('hi')));
    const names = toolNames(0);
    expect(names).not.toContain('tool_search');
    expect(names).toEqual(expect.arrayContaining([...ALL_DEMO, ...ALL_DEMO.map((n) => n.replace('demo', 'second'))]));
  });

  it('auto turns on only when the schemas exceed 10% of the context window', async () => {
    // mock-model has no known window: 128k tokens are assumed, and 12 small tools stay loaded.
    const small = await harness({});
    bed.server.enqueue(responsesTurn({ text: 'ok' }), responsesTurn({ text: 'ok' }));
    const t1 = await small.manager.start();
    await new EventReader(t1).turnEnd(await t1.submit(text('hi')));
    expect(toolNames(0)).toContain('mcp__demo__echo');
    expect(toolNames(0)).not.toContain('tool_search');
    // A configured window of 2,000 tokens: the same schemas are over 200 tokens, so they are deferred.
    const tight = await harness({ model_context_window: 2000 });
    const t2 = await tight.manager.start();
    await new EventReader(t2).turnEnd(await t2.submit(text('hi')));
    expect(toolNames(1)).toContain('tool_search');
    expect(toolNames(1).filter((n) => n.startsWith('mcp__'))).toEqual([]);
  });

  it('keeps an always_loaded server\'s tools in every request and searches only the others', async () => {
    const h = await harness({ tool_search: 'on', mcp_servers: { demo: { command: 'in-process-demo', always_loaded: true } } });
    bed.server.enqueue(responsesTurn({ calls: [{ id: 'x', name: 'mcp__second__weather', args: { city: 'Oslo' } }] }), responsesTurn({ text: 'ok' }));
    const thread = await h.manager.start();
    await new EventReader(thread).turnEnd(await thread.submit(text('hi')));
    const names = toolNames(0);
    expect(names.filter((n) => n.startsWith('mcp__')).sort()).toEqual(ALL_DEMO);
    const search = (bed.server.requests[0]!.body.tools as Item[]).find((t) => t.name === 'tool_search')!;
    expect(search.description).not.toContain('- demo');
    expect(search.description).toContain('- second (6 tools)');
    // A deferred tool named exactly is still callable without a search.
    expect(outputs(1)).toEqual([JSON.stringify({ city: 'Oslo', celsius: 21 })]);
  });
});
