// MCP tools in a turn, through the McpToolSource seam, against real SDK servers: begin/end events,
// result conversion, progress, cancellation on interrupt, elicitation, and the resource tools.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { connectInProcess, createDemoServer, type InProcessMcp, type ServerLog } from '../fixtures/in-process-mcp.js';
import { EventReader, makeHarness, text, type Harness } from '../support/agent-harness.js';

let server: FakeModelServer;
let mcp: InProcessMcp;
let log: ServerLog;
let h: Harness | undefined;
beforeEach(async () => {
  server = await startFakeModelServer();
  log = { cancelled: 0 };
  mcp = await connectInProcess({ demo: () => createDemoServer(log), second: () => createDemoServer({ cancelled: 0 }) });
});
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  await mcp.close();
  await server.close();
});

type Item = Record<string, unknown>;
const outputs = (n: number) => (server.requests[n]!.body.input as Item[]).filter((i) => i.type === 'function_call_output').map((i) => i.output);

async function runCalls(calls: { id: string; name: string; args: unknown }[], raw: Record<string, unknown> = {}) {
  h = await makeHarness(server, { mcp: mcp.source, raw });
  server.enqueue(responsesTurn({ calls }), responsesTurn({ text: 'done' }));
  const thread = await h.manager.start();
  const events = new EventReader(thread);
  const turnId = await thread.submit(text('use mcp'));
  return { thread, events, turnId };
}

describe('MCP tools', () => {
  it('offers the catalog and the resource tools, and converts results the way Codex does', async () => {
    const { events, turnId } = await runCalls([
      { id: 'a', name: 'mcp__demo__echo', args: { text: 'hi' } },
      { id: 'b', name: 'mcp__demo__weather', args: { city: 'Oslo' } },
      { id: 'c', name: 'mcp__demo__picture', args: {} },
      { id: 'd', name: 'mcp__demo__broken', args: {} },
      { id: 'e', name: 'mcp__demo__echo', args: '[1]' },
    ]);
    await events.turnEnd(turnId);
    const names = (server.requests[0]!.body.tools as Item[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource', 'mcp__demo__echo', 'mcp__second__echo']));
    expect(outputs(1)).toEqual([
      JSON.stringify([{ type: 'text', text: 'demo says hi' }]),
      JSON.stringify({ city: 'Oslo', celsius: 21 }),
      [
        { type: 'input_text', text: 'a red pixel' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      ],
      JSON.stringify([{ type: 'text', text: 'it broke' }]),
      'MCP tool arguments must be a JSON object, got [1]',
    ]);
    const begin = events.seen.find((e) => e.msg.type === 'mcp_tool_call_begin')!.msg;
    expect(begin).toEqual({ type: 'mcp_tool_call_begin', call_id: 'a', invocation: { server: 'demo', tool: 'echo', arguments: { text: 'hi' } } });
    const end = events.seen.find((e) => e.msg.type === 'mcp_tool_call_end')!.msg;
    expect(end).toMatchObject({ call_id: 'a', invocation: { server: 'demo', tool: 'echo' }, result: { Ok: { content: [{ type: 'text', text: 'demo says hi' }] } } });
    expect(events.types().filter((t) => t === 'mcp_tool_call_end')).toHaveLength(4);
  });

  it('reports progress and cancels the MCP request when the turn is interrupted', async () => {
    const { thread, events, turnId } = await runCalls([{ id: 's', name: 'mcp__demo__slow', args: { steps: 2 } }]);
    const progress = await events.until('mcp_tool_call_progress', (m) => m.message === 'MCP tool progress: 2/2');
    expect(progress.call_id).toBe('s');
    await thread.submit({ type: 'interrupt' });
    expect(await events.turnEnd(turnId)).toMatchObject({ type: 'turn_aborted' });
    const end = events.seen.find((e) => e.msg.type === 'mcp_tool_call_end')!.msg;
    expect(end).toMatchObject({ call_id: 's', result: { Err: expect.stringContaining('aborted') } });
    await expect.poll(() => log.cancelled, { timeout: 10_000 }).toBe(1);
  });

  it('passes a server elicitation to the front-end as elicitation_request and returns its answer', async () => {
    const { thread, events, turnId } = await runCalls([{ id: 'q', name: 'mcp__demo__ask', args: {} }], { approval_policy: 'on-request' });
    const req = await events.until('elicitation_request');
    // The id is the server's JSON-RPC request id (the SDK server numbers its requests from 0).
    expect(req).toMatchObject({ server_name: 'demo', id: 0, turn_id: turnId, request: { message: 'Your name?' } });
    await thread.submit({ type: 'resolve_elicitation', server_name: 'demo', request_id: req.id, action: 'accept', content: { name: 'Ada' } });
    await events.turnEnd(turnId);
    expect(outputs(1)).toEqual([JSON.stringify([{ type: 'text', text: JSON.stringify({ action: 'accept', content: { name: 'Ada' } }) }])]);
  });

  it('resource tools: aggregate listing, one server with its name, read, and the cursor rule', async () => {
    const { events, turnId } = await runCalls([
      { id: 'r1', name: 'list_mcp_resources', args: {} },
      { id: 'r2', name: 'list_mcp_resource_templates', args: { server: 'demo' } },
      { id: 'r3', name: 'read_mcp_resource', args: { server: 'demo', uri: 'memo://notes/x' } },
      { id: 'r4', name: 'list_mcp_resources', args: { cursor: 'abc' } },
      { id: 'r5', name: 'read_mcp_resource', args: { server: 'nope', uri: 'memo://readme' } },
    ]);
    await events.turnEnd(turnId);
    const [all, templates, read, cursor, failed] = outputs(1) as string[];
    expect(JSON.parse(all!)).toEqual({
      resources: [
        expect.objectContaining({ server: 'demo', uri: 'memo://readme', name: 'readme' }),
        expect.objectContaining({ server: 'second', uri: 'memo://readme' }),
      ],
    });
    expect(JSON.parse(templates!)).toEqual({ server: 'demo', resourceTemplates: [expect.objectContaining({ server: 'demo', uriTemplate: 'memo://notes/{slug}' })] });
    expect(JSON.parse(read!)).toEqual({ server: 'demo', uri: 'memo://notes/x', contents: [{ uri: 'memo://notes/x', text: 'note x' }] });
    expect(cursor).toBe('cursor can only be used when a server is specified');
    expect(failed).toMatch(/^tool call error: resources\/read failed: unknown MCP server 'nope'/);
    const begins = events.seen.filter((e) => e.msg.type === 'mcp_tool_call_begin').map((e) => (e.msg as { invocation: { server: string } }).invocation.server);
    expect(begins).toEqual(['codex', 'demo', 'demo', 'nope']);
  });
});
