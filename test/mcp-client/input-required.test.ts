// Multi-round-trip requests (2026-07-28 input-required results): the embedded elicitation, sampling
// and roots requests reach the same handlers a 2025 server's own requests do, the server's request
// state comes back intact, the rounds are bounded, and an input the host cannot give ends the call.
// A call may bring its own answerers (a gateway's calling client): its questions then go to those.
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitRequest } from '@modelcontextprotocol/client';
import type { InputHandlers, McpClientHandlers } from '../../src/mcp-client/index.js';
import { clientPool, fixtureStdio, textOf } from './helpers.js';

const pool = clientPool();
afterEach(() => pool.closeAll());

const ERAS = [
  ['2026-07-28', { FIXTURE_SERVE: 'modern-only', FIXTURE_INPUT_REQUIRED: '1' }],
  ['2025-11-25', { FIXTURE_INPUT_REQUIRED: '1' }],
] as const;

describe.each(ERAS)('a server speaking %s', (protocol, env) => {
  const config = () => fixtureStdio('mrtr', 'stdio-v2-server.mjs', { env });

  it('asks for confirmation through the elicitation handler, and the answer decides', async () => {
    const asked: ElicitRequest['params'][] = [];
    let answer: 'accept' | 'decline' = 'accept';
    const client = pool.create(config(), {
      handlers: {
        elicitation: async (request, ctx) => {
          expect(ctx.serverName).toBe('mrtr');
          asked.push(request);
          return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
        },
      },
    });
    expect((await client.connect()).protocolVersion).toBe(protocol);
    expect(textOf(await client.callTool('deploy', { env: 'prod' }))).toBe('deployed to prod');
    answer = 'decline';
    expect(textOf(await client.callTool('deploy', { env: 'staging' }))).toBe('deploy cancelled');
    expect(asked.map((r) => r.message)).toEqual(['Deploy to prod?', 'Deploy to staging?']);
  });

  it('asks the host model through the sampling handler', async () => {
    const client = pool.create(config(), {
      handlers: { sampling: async (request) => ({ role: 'assistant', model: 'host', content: { type: 'text', text: `re: ${JSON.stringify(request.messages[0]?.content)}`.slice(0, 40) } }) },
    });
    await client.connect();
    expect(textOf(await client.callTool('ask_model', { prompt: 'hi' }))).toMatch(/^model said: re: /);
  });

  it('answers roots from the configured roots', async () => {
    const client = pool.create(config(), {}, { roots: [{ uri: 'file:///work', name: 'work' }] });
    await client.connect();
    expect(JSON.parse(textOf(await client.callTool('ask_roots', {})))).toEqual([{ uri: 'file:///work', name: 'work' }]);
  });
});

describe('bounds and refusals (2026-07-28)', () => {
  const modern = () => fixtureStdio('mrtr', 'stdio-v2-server.mjs', { env: { FIXTURE_SERVE: 'modern-only', FIXTURE_INPUT_REQUIRED: '1' } });

  it('gives each embedded request its own id, though the server names them alike, so a host can tell concurrent ones apart', async () => {
    const ids: (string | number)[] = [];
    const client = pool.create(modern(), { handlers: { elicitation: async (_r, ctx) => (ids.push(ctx.requestId), { action: 'accept', content: { confirm: true } }) } });
    await client.connect();
    const results = await Promise.all(['a', 'b', 'c'].map((env) => client.callTool('deploy', { env })));
    expect(results.map(textOf)).toEqual(['deployed to a', 'deployed to b', 'deployed to c']);
    expect(new Set(ids).size).toBe(3);
  });

  it('a server that is never satisfied fails the call after 10 rounds, with a clear error', async () => {
    let rounds = 0;
    const client = pool.create(modern(), { handlers: { elicitation: async () => (rounds++, { action: 'accept', content: { confirm: true } }) } });
    await client.connect();
    const err = await client.callTool('never_satisfied', {}).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/still required input after 10 rounds/);
    expect(rounds).toBe(10);
    // The connection is still good.
    expect(textOf(await client.callTool('echo', { text: 'still here' }))).toBe('still here');
  });

  it("answers each call's input requests with that call's own answerers, not the connection's, however many calls run at once", async () => {
    const connectionAsked: string[] = [];
    // The connection declares what its handlers answer; a call's own answerers take their place.
    const handlers: McpClientHandlers = {
      elicitation: async (r) => (connectionAsked.push(r.message), { action: 'decline' }),
      sampling: async () => (connectionAsked.push('sampling'), { role: 'assistant', model: 'connection', content: { type: 'text', text: 'connection answer' } }),
    };
    const client = pool.create(modern(), { handlers }, { roots: [{ uri: 'file:///shared', name: 'shared' }] });
    await client.connect();
    const asked: Record<string, string[]> = { a: [], b: [], c: [] };
    // Each call holds its answer until all three were asked: the three wait on the server together.
    let release!: () => void;
    const allAsked = new Promise<void>((resolve) => (release = resolve));
    const own = (env: string, confirm: boolean): InputHandlers => ({
      elicitation: async (r, ctx) => {
        expect(ctx.inputKey).toBe('confirm');
        asked[env]!.push(r.message);
        if (Object.values(asked).every((m) => m.length > 0)) release();
        await allAsked;
        return { action: 'accept', content: { confirm } };
      },
    });
    const calls = [['a', true], ['b', false], ['c', true]] as const;
    const results = await Promise.all(calls.map(([env, confirm]) => client.callTool('deploy', { env }, { inputs: own(env, confirm) })));
    expect(results.map(textOf)).toEqual(['deployed to a', 'deploy cancelled', 'deployed to c']);
    expect(asked).toEqual({ a: ['Deploy to a?'], b: ['Deploy to b?'], c: ['Deploy to c?'] });
    expect(connectionAsked).toEqual([]);

    // Sampling and roots too (the call's roots rather than the configured ones).
    const sampled = await client.callTool('ask_model', { prompt: 'hi' }, { inputs: { sampling: async () => ({ role: 'assistant', model: 'own', content: { type: 'text', text: 'own answer' } }) } });
    expect(textOf(sampled)).toBe('model said: own answer');
    const roots = await client.callTool('ask_roots', {}, { inputs: { listRoots: async () => [{ uri: 'file:///mine', name: 'mine' }] } });
    expect(JSON.parse(textOf(roots))).toEqual([{ uri: 'file:///mine', name: 'mine' }]);

    // The SDK's checks of an answer still apply, and so does the round bound, with the same error.
    const invalid = await client.callTool('deploy', { env: 'x' }, { inputs: { elicitation: async () => ({ action: 'maybe' }) as never } }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(invalid?.message).toMatch(/Invalid elicitation result/);
    let rounds = 0;
    const bounded = await client.callTool('never_satisfied', {}, { inputs: { elicitation: async () => (rounds++, { action: 'accept', content: { confirm: true } }) } }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(bounded?.message).toMatch(/^Multi-round-trip request 'tools\/call' still required input after 10 rounds \(inputRequired\.maxRounds\)$/);
    expect(rounds).toBe(10);
    expect(connectionAsked).toEqual([]);
  });

  it('an input the host cannot give (no elicitation capability) ends the call with a clear error, never a hang', async () => {
    const client = pool.create(modern(), {}, { elicitationCapability: null });
    await client.connect();
    const started = Date.now();
    const err = await client.callTool('deploy', { env: 'prod' }, { timeoutMs: 20_000 }).then(
      (r) => new Error(`unexpected result ${JSON.stringify(r)}`),
      (e: unknown) => e as Error,
    );
    expect(err.message).toMatch(/elicitation/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
