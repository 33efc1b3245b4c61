// Input flows behind the SDK's real serving entry (createMcpHandler, requests built as a 2026-07-28
// client sends them): questions asked together go out together, a missing answer is asked again with
// a new state, and waiting work is bounded in number and in lifetime.
import { describe, expect, it } from 'vitest';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { nullLogger } from '../../util/index.js';
import { authInfoFor, callerFromClaims } from '../access/caller.js';
import { InputFlows } from './input-flows.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const ask = (message: string) => ({ method: 'elicitation/create' as const, params: { mode: 'form' as const, message, requestedSchema: { type: 'object' as const, properties: {} } } });

type Work = Parameters<InputFlows['round']>[2];

const askTwo: Work = async (_flowCtx, channel) => {
  const [a, b] = await Promise.all([channel.ask(ask('first?'), { key: 'a' }), channel.ask(ask('second?'), { key: 'b' })]);
  return { content: [{ type: 'text' as const, text: JSON.stringify({ a, b }) }] };
};

function serve(flows: InputFlows, work: Work = askTwo) {
  const handler = createMcpHandler(
    () => {
      const server = new Server({ name: 'flows', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      server.setRequestHandler('tools/call', (request, ctx) => flows.round(ctx, request.params.name, work) as Promise<{ content: { type: 'text'; text: string }[] }>);
      return server;
    },
    { legacy: 'reject', responseMode: 'json' },
  );
  let id = 0;
  return async (params: Record<string, unknown>, as?: string) => {
    const name = typeof params.name === 'string' ? params.name : 'work';
    const res = await handler.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'work', arguments: {}, ...params, _meta: { ...(params._meta as object), ...ENVELOPE } } }),
      }),
      as === undefined ? undefined : { authInfo: authInfoFor(callerFromClaims('https://as.example', { sub: as }), undefined) },
    );
    return (await res.json()) as { result?: { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: string; content?: { text: string }[] }; error?: { code: number; message: string } };
  };
}

const accept = (v: string) => ({ action: 'accept', content: { v } });

describe('InputFlows', () => {
  it('asks questions asked together in one result, asks a missing answer again with a new state, then completes', async () => {
    const flows = new InputFlows({ logger: nullLogger });
    const call = serve(flows);
    const r1 = await call({});
    expect(r1.result).toMatchObject({ resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create' }, b: { method: 'elicitation/create' } } });
    const r2 = await call({ inputResponses: { a: accept('1') }, requestState: r1.result!.requestState });
    expect(Object.keys(r2.result!.inputRequests!)).toEqual(['b']);
    expect(r2.result!.requestState).not.toBe(r1.result!.requestState);
    // The first round's state is spent once the second was handed out.
    expect((await call({ inputResponses: { b: accept('x') }, requestState: r1.result!.requestState })).error?.message).toMatch(/^Invalid requestState: it belongs to an earlier round/);
    const r3 = await call({ inputResponses: { b: accept('2') }, requestState: r2.result!.requestState });
    expect(JSON.parse(r3.result!.content![0]!.text)).toEqual({ a: accept('1'), b: accept('2') });
    expect(flows.size).toBe(0);
  });

  it("shows the work its first round's request, with the flow's signal and the current round's _meta and notifications", async () => {
    const flows = new InputFlows({ logger: nullLogger });
    const seen: Record<string, unknown>[] = [];
    const call = serve(flows, async (flowCtx, channel) => {
      const look = () => ({ id: flowCtx.mcpReq.id, method: flowCtx.mcpReq.method, token: flowCtx.mcpReq._meta?.progressToken, aborted: flowCtx.mcpReq.signal.aborted });
      seen.push(look());
      const answer = await channel.ask(ask('go on?'), { key: 'a' });
      seen.push(look());
      const { notify } = flowCtx.mcpReq; // called detached, as the SDK's own may be
      await notify({ method: 'notifications/message', params: { level: 'info', data: 'round two' } });
      return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }] };
    });
    const r1 = await call({ _meta: { progressToken: 'first' } });
    expect(r1.result?.resultType).toBe('input_required');
    const r2 = await call({ inputResponses: { a: accept('1') }, requestState: r1.result!.requestState, _meta: { progressToken: 'second' } });
    expect(JSON.parse(r2.result!.content![0]!.text)).toEqual(accept('1'));
    // The first round ended (its signal with it) while the work went on: the work's signal is the flow's.
    expect(seen).toEqual([
      { id: 1, method: 'tools/call', token: 'first', aborted: false },
      { id: 1, method: 'tools/call', token: 'second', aborted: false },
    ]);
  });

  it("binds the state to its caller and to the tool named: another caller's retry, or one naming another tool, is refused and answers nothing", async () => {
    const flows = new InputFlows({ logger: nullLogger });
    const call = serve(flows);
    const alice = await call({}, 'alice');
    // Opaque: neither the caller nor the tool can be read out of it.
    const decoded = alice.result!.requestState!.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1')).join(' ');
    expect(decoded).not.toMatch(/alice|as\.example|work/);
    const both = { inputResponses: { a: accept('1'), b: accept('2') }, requestState: alice.result!.requestState };
    const mallory = await call(both, 'mallory');
    expect(mallory.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid requestState: it was minted for another request/) });
    expect(mallory.result).toBeUndefined();
    expect((await call(both)).error?.message).toMatch(/minted for another request/);
    expect((await call({ ...both, name: 'other' }, 'alice')).error?.message).toMatch(/minted for another request/);
    // Alice's own retry still finds her work waiting, untouched by the refused ones.
    const done = await call(both, 'alice');
    expect(JSON.parse(done.result!.content![0]!.text)).toEqual({ a: accept('1'), b: accept('2') });
  });

  it('gives up work whose client does not come back within its lifetime', async () => {
    const flows = new InputFlows({ logger: nullLogger, ttlMs: 200 });
    const call = serve(flows);
    const r1 = await call({});
    expect(flows.size).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(flows.size).toBe(0);
    const late = await call({ inputResponses: { a: accept('1'), b: accept('2') }, requestState: r1.result!.requestState });
    expect(late.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid requestState: the request it belongs to is no longer waiting here/) });
  });

  it('holds at most maxWaiting requests: past it the one waiting longest is given up', async () => {
    const flows = new InputFlows({ logger: nullLogger, maxWaiting: 2 });
    const call = serve(flows);
    const [first, second, third] = [await call({}), await call({}), await call({})];
    expect(flows.size).toBe(2);
    const both = { inputResponses: { a: accept('1'), b: accept('2') } };
    expect((await call({ ...both, requestState: first.result!.requestState })).error?.message).toMatch(/no longer waiting here/);
    expect((await call({ ...both, requestState: second.result!.requestState })).result?.content).toBeDefined();
    expect((await call({ ...both, requestState: third.result!.requestState })).result?.content).toBeDefined();
    flows.close();
  });

  it("gives up, past the bound, the oldest request of the caller holding the most, never another caller's", async () => {
    const flows = new InputFlows({ logger: nullLogger, maxWaiting: 3 });
    const call = serve(flows);
    const alice = await call({}, 'alice');
    const mallory = [await call({}, 'mallory'), await call({}, 'mallory'), await call({}, 'mallory')];
    expect(flows.size).toBe(3);
    const both = { inputResponses: { a: accept('1'), b: accept('2') } };
    // Mallory's oldest went; Alice's request still waits.
    expect((await call({ ...both, requestState: mallory[0]!.result!.requestState }, 'mallory')).error?.message).toMatch(/no longer waiting here/);
    expect((await call({ ...both, requestState: alice.result!.requestState }, 'alice')).result?.content).toBeDefined();
    expect((await call({ ...both, requestState: mallory[2]!.result!.requestState }, 'mallory')).result?.content).toBeDefined();
    flows.close();
  });
});
