// The gateway passes traffic both ways, tied to the request that caused it: elicitation, sampling,
// log messages and progress from an upstream to the client; the client's cancellation to the
// upstream and an upstream's cancellation of its own request to the client; resources/updated for
// subscriptions; logging/setLevel. Real upstream processes behind an in-process gateway session.
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { waitFor } from '../support/wait.js';
import { startGateway, textOf, upstream, type GatewayHarness } from './gateway-harness.js';

const CALL = { timeout: 60_000 };

describe('gateway relay (aggregating, two upstreams, a client with sampling and elicitation)', () => {
  let gw: GatewayHarness;
  const elicitSignals: AbortSignal[] = [];
  let elicitations: Record<string, unknown>[] = [];
  let samplings: Record<string, unknown>[] = [];

  beforeAll(async () => {
    gw = await startGateway([upstream('alpha'), upstream('beta')], {
      capabilities: { sampling: {}, elicitation: { form: {} } },
      setup: (client: Client) => {
        client.setRequestHandler('elicitation/create', async (req, ctx) => {
          elicitations.push(req.params as Record<string, unknown>);
          elicitSignals.push(ctx.mcpReq.signal);
          if ((req.params as { message: string }).message === 'never mind') {
            await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
            return { action: 'cancel' };
          }
          return { action: 'accept', content: { answer: 'forty-two' } };
        });
        client.setRequestHandler('sampling/createMessage', async (req) => {
          samplings.push(req.params as Record<string, unknown>);
          return { role: 'assistant', content: { type: 'text', text: 'a sampled answer' }, model: 'test-model' };
        });
      },
    });
  }, 60_000);
  afterAll(async () => gw?.close());

  it('declares upstream everything the gateway can relay (one pool for all clients), whatever this client declared', async () => {
    const seen = JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__alpha__seen', arguments: {} }, CALL))) as { clientCapabilities: Record<string, unknown> };
    expect(seen.clientCapabilities.elicitation).toEqual({ form: {}, url: {} });
    expect(seen.clientCapabilities.sampling).toEqual({ context: {}, tools: {} });
    expect(seen.clientCapabilities.roots).toEqual({ listChanged: true });
  });

  it('lists every tool under its model-visible name with its definition kept', async () => {
    const { tools } = await gw.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('mcp__alpha__echo');
    expect(names).toContain('mcp__beta__echo');
    const echo = tools.find((t) => t.name === 'mcp__alpha__echo')!;
    expect(echo.description).toBe('echo of alpha');
    expect(echo.annotations).toEqual({ readOnlyHint: true });
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
  });

  it('routes calls by name and passes the request _meta on (without the client progressToken)', async () => {
    const r = await gw.client.callTool({ name: 'mcp__beta__echo', arguments: { text: 'hi' }, _meta: { trace: 'abc' } }, CALL);
    expect(textOf(r)).toBe('beta:hi');
    const seen = JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__beta__seen', arguments: {} }, CALL))) as { meta: Record<string, unknown> };
    expect(seen.meta.trace).toBe('abc');
  });

  it('answers an unknown tool with a JSON-RPC error naming close matches', async () => {
    await expect(gw.client.callTool({ name: 'mcp__alpha__ecko', arguments: {} }, CALL)).rejects.toThrow(/Unknown tool: mcp__alpha__ecko.*mcp__alpha__echo/);
  });

  it('relays an upstream elicitation to the client and its answer back', async () => {
    elicitations = [];
    const r = await gw.client.callTool({ name: 'mcp__alpha__ask', arguments: { message: 'what is the answer?' } }, CALL);
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]).toMatchObject({ message: 'what is the answer?', requestedSchema: { properties: { answer: { type: 'string' } } } });
    expect(JSON.parse(textOf(r))).toEqual({ action: 'accept', content: { answer: 'forty-two' } });
  });

  it('relays an upstream sampling request to the client and its answer back', async () => {
    samplings = [];
    const r = await gw.client.callTool({ name: 'mcp__beta__sample', arguments: { prompt: 'say something' } }, CALL);
    expect(textOf(r)).toBe('sampled: a sampled answer (test-model)');
    expect(samplings[0]).toMatchObject({ maxTokens: 20, messages: [{ role: 'user', content: { type: 'text', text: 'say something' } }] });
  });

  it('relays log messages (attributed to their server) and progress during the call they belong to', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const before = gw.notes.length;
    const r = await gw.client.callTool({ name: 'mcp__alpha__chatter', arguments: { steps: 3 } }, { ...CALL, onprogress: (p) => progress.push(p) });
    expect(textOf(r)).toBe('alpha:chattered 3');
    // They arrived before the result: tied to the call, not sent afterwards.
    const logs = gw.notes.slice(before).filter((n) => n.method === 'notifications/message');
    expect(logs.map((n) => n.params)).toEqual([
      { level: 'info', logger: 'alpha/chatter', data: 'step 1' },
      { level: 'error', logger: 'alpha/chatter', data: 'alarm 1' },
      { level: 'info', logger: 'alpha/chatter', data: 'step 2' },
      { level: 'error', logger: 'alpha/chatter', data: 'alarm 2' },
      { level: 'info', logger: 'alpha/chatter', data: 'step 3' },
      { level: 'error', logger: 'alpha/chatter', data: 'alarm 3' },
    ]);
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('passes logging/setLevel on to every server and filters what it relays', async () => {
    await gw.client.setLoggingLevel('error');
    for (const server of ['alpha', 'beta']) {
      const seen = JSON.parse(textOf(await gw.client.callTool({ name: `mcp__${server}__seen`, arguments: {} }, CALL))) as { level: string };
      expect(seen.level).toBe('error');
    }
    const before = gw.notes.length;
    await gw.client.callTool({ name: 'mcp__beta__chatter', arguments: { steps: 2 } }, CALL);
    const levels = gw.notes.slice(before).filter((n) => n.method === 'notifications/message').map((n) => n.params?.level);
    expect(levels).toEqual(['error', 'error']);
    await gw.client.setLoggingLevel('debug');
  });

  it("passes the client's cancellation on to the upstream", async () => {
    const controller = new AbortController();
    const call = gw.client.callTool({ name: 'mcp__alpha__wait_for_cancel', arguments: {} }, { ...CALL, signal: controller.signal });
    // The upstream call is running once the upstream itself has it (the gateway's in-flight count rises before it sends it on).
    const seen = async () => JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__alpha__seen', arguments: {} }, CALL))) as { waiting: number; cancelled: number };
    await waitFor(async () => (await seen()).waiting === 1, 'the upstream call in flight', 20_000);
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    await waitFor(async () => (await seen()).cancelled === 1, 'the upstream to see the cancellation', 20_000);
  });

  it("passes an upstream's cancellation of its own elicitation on to the client", async () => {
    const before = elicitSignals.length;
    const r = await gw.client.callTool({ name: 'mcp__beta__ask_then_withdraw', arguments: { ms: 300 } }, CALL);
    expect(textOf(r)).toBe('withdrawn');
    expect(elicitSignals.length).toBe(before + 1);
    await waitFor(() => elicitSignals.at(-1)!.aborted, 'the elicitation signal to abort', 20_000);
  });

  it('serves resources under their original URIs, attributed, the first server winning a shared URI', async () => {
    const { resources } = await gw.client.listResources();
    const byUri = new Map(resources.map((r) => [r.uri, r]));
    expect(byUri.get('gw://alpha/static')?._meta).toEqual({ 'switchboard/server': 'alpha' });
    expect(byUri.get('gw://beta/static')?._meta).toEqual({ 'switchboard/server': 'beta' });
    expect(resources.filter((r) => r.uri === 'gw://shared')).toHaveLength(1);
    expect(byUri.get('gw://shared')?._meta).toEqual({ 'switchboard/server': 'alpha' });
    const shared = await gw.client.readResource({ uri: 'gw://shared' });
    expect(shared.contents[0]).toMatchObject({ text: 'shared from alpha' });
    const beta = await gw.client.readResource({ uri: 'gw://beta/static' });
    expect(beta.contents[0]).toMatchObject({ text: 'static of beta' });
  });

  it('serves resource templates and reads template URIs from the server that owns the template', async () => {
    const { resourceTemplates } = await gw.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['gw://alpha/item/{id}', 'gw://beta/item/{id}']);
    const item = await gw.client.readResource({ uri: 'gw://beta/item/7' });
    expect(JSON.parse((item.contents[0] as { text: string }).text)).toEqual({ server: 'beta', id: '7' });
    await expect(gw.client.readResource({ uri: 'gw://nowhere/x' })).rejects.toThrow(/Resource gw:\/\/nowhere\/x not found/);
  });

  it('relays resources/updated for a subscription, and unsubscribes at the right server', async () => {
    await gw.client.subscribeResource({ uri: 'gw://beta/static' });
    const seen = JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__beta__seen', arguments: {} }, CALL))) as { subscribed: string[] };
    expect(seen.subscribed).toEqual(['gw://beta/static']);
    const before = gw.notes.length;
    await gw.client.callTool({ name: 'mcp__beta__touch', arguments: { uri: 'gw://beta/static' } }, CALL);
    await gw.waitForNote((n) => n.method === 'notifications/resources/updated' && n.params?.uri === 'gw://beta/static', { after: before });
    await gw.client.unsubscribeResource({ uri: 'gw://beta/static' });
    const after = JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__beta__seen', arguments: {} }, CALL))) as { subscribed: string[] };
    expect(after.subscribed).toEqual([]);
  });

  it('serves prompts under qualified names and routes prompts/get', async () => {
    const { prompts } = await gw.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['alpha__greet', 'beta__greet']);
    const got = await gw.client.getPrompt({ name: 'beta__greet', arguments: { who: 'ada' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'beta greets ada' });
    await expect(gw.client.getPrompt({ name: 'gamma__greet', arguments: {} })).rejects.toThrow(/Unknown prompt: gamma__greet/);
  });

  it('routes completion/complete by qualified prompt name and by resource template', async () => {
    const byPrompt = await gw.client.complete({ ref: { type: 'ref/prompt', name: 'alpha__greet' }, argument: { name: 'who', value: 'a' } });
    expect(byPrompt.completion.values).toEqual(['ada', 'alan']);
    const byTemplate = await gw.client.complete({ ref: { type: 'ref/resource', uri: 'gw://beta/item/{id}' }, argument: { name: 'id', value: '1' } });
    expect(byTemplate.completion.values).toEqual(['1', '12', '123']);
  });
});

describe('gateway relay for a client without sampling or elicitation', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway([upstream('solo')], { capabilities: {} });
  }, 60_000);
  afterAll(async () => gw?.close());

  it("answers an upstream's elicitation and sampling with the refusal this client's SDK would give, and roots with the gateway's", async () => {
    const ask = await gw.client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'anyone?' } }, CALL);
    expect(ask.isError).toBe(true);
    expect(textOf(ask)).toMatch(/elicitation failed: .*does not support elicitation/i);
    const sample = await gw.client.callTool({ name: 'mcp__solo__sample', arguments: { prompt: 'x' } }, CALL);
    expect(sample.isError).toBe(true);
    expect(textOf(sample)).toMatch(/sampling failed: .*Method not found/);
    const roots = JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__solo__roots', arguments: {} }, CALL))) as { uri: string }[];
    expect(roots).toEqual([{ uri: pathToFileURL(process.cwd()).href, name: 'workspace' }]);
  });
});

describe('gateway relay of URL elicitation', () => {
  let gw: GatewayHarness;
  const asked: Record<string, unknown>[] = [];
  beforeAll(async () => {
    gw = await startGateway([upstream('web')], {
      capabilities: { elicitation: { url: {} } },
      setup: (client: Client) => {
        client.setRequestHandler('elicitation/create', async (req) => {
          asked.push(req.params as Record<string, unknown>);
          return { action: 'accept' };
        });
      },
    });
  }, 60_000);
  afterAll(async () => gw?.close());

  it('passes the URL elicitation on unchanged, and then its notifications/elicitation/complete', async () => {
    const before = gw.notes.length;
    const r = await gw.client.callTool({ name: 'mcp__web__ask_url', arguments: { id: 'el-42' } }, CALL);
    expect(JSON.parse(textOf(r))).toEqual({ action: 'accept' });
    expect(asked).toEqual([{ mode: 'url', message: 'Sign in to continue', url: 'https://auth.example/el-42', elicitationId: 'el-42' }]);
    const complete = await gw.waitForNote((n) => n.method === 'notifications/elicitation/complete', { after: before });
    expect(complete.params).toEqual({ elicitationId: 'el-42' });
  });
});

describe("gateway relay of the client's roots", () => {
  let gw: GatewayHarness;
  let roots = [{ uri: 'file:///work/project', name: 'project' }];
  beforeAll(async () => {
    gw = await startGateway([upstream('fs')], {
      capabilities: { roots: { listChanged: true } },
      setup: (client: Client) => client.setRequestHandler('roots/list', async () => ({ roots })),
    });
  }, 60_000);
  afterAll(async () => gw?.close());

  it("answers an upstream's roots/list with the client's roots, and passes roots list_changed on", async () => {
    const seen = JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__fs__seen', arguments: {} }, CALL))) as { clientCapabilities: Record<string, unknown> };
    expect(seen.clientCapabilities.roots).toEqual({ listChanged: true });
    expect(JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__fs__roots', arguments: {} }, CALL)))).toEqual(roots);
    roots = [{ uri: 'file:///work/other', name: 'other' }];
    await gw.client.sendRootsListChanged();
    await waitFor(async () => {
      const now = JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__fs__seen', arguments: {} }, CALL))) as { rootsChanged: number };
      return now.rootsChanged === 1;
    }, 'the upstream to see roots list_changed', 20_000);
    expect(JSON.parse(textOf(await gw.client.callTool({ name: 'mcp__fs__roots', arguments: {} }, CALL)))).toEqual(roots);
  });
});
