// The agent asks the user through the same elicitation_request event whether an MCP server asks by a
// 2026-07-28 input-required result or by a 2025 elicitation/create request, and the answer decides.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { connectInProcess, type InProcessMcp } from '../fixtures/in-process-mcp.js';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { EventReader, makeHarness, text, type Harness } from '../support/agent-harness.js';

let model: FakeModelServer;
let mcp: InProcessMcp;
let h: Harness | undefined;
beforeEach(async () => {
  model = await startFakeModelServer();
  const confirmServer = () => createFixtureServer({ inputRequired: true, resources: false, prompts: false });
  mcp = await connectInProcess({ modern: confirmServer, legacy: confirmServer }, { modernOnly: ['modern'] });
});
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  await mcp.close();
  await model.close();
});

const outputs = (n: number) => (model.requests[n]!.body.input as Record<string, unknown>[]).filter((i) => i.type === 'function_call_output').map((i) => i.output);

describe('confirmation through the agent, whichever revision the server speaks', () => {
  it.each([
    ['modern', 'accept', 'deployed to prod'],
    ['legacy', 'accept', 'deployed to prod'],
    ['modern', 'decline', 'deploy cancelled'],
  ] as const)('%s server, the user answers %s', async (name, action, expected) => {
    expect(mcp.manager.status().map((s) => [s.name, s.protocol])).toEqual([
      ['modern', '2026-07-28'],
      ['legacy', '2025-11-25'],
    ]);
    h = await makeHarness(model, { mcp: mcp.source, raw: { approval_policy: 'on-request' } });
    model.enqueue(responsesTurn({ calls: [{ id: 'd', name: `mcp__${name}__deploy`, args: { env: 'prod' } }] }), responsesTurn({ text: 'done' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const turnId = await thread.submit(text('deploy'));
    const req = await events.until('elicitation_request');
    expect(req).toMatchObject({ server_name: name, turn_id: turnId, request: { message: 'Deploy to prod?' } });
    await thread.submit({ type: 'resolve_elicitation', server_name: name, request_id: req.id, action, ...(action === 'accept' ? { content: { confirm: true } } : {}) });
    await events.turnEnd(turnId);
    expect(outputs(1)).toEqual([JSON.stringify([{ type: 'text', text: expected }])]);
  });
});
