// Several clients of one gateway share one pool of upstream connections: what an upstream starts
// during a client's request reaches that client only; a client without elicitation gets the refusal
// while one with it is asked; resources/updated reaches subscribers only (the upstream subscribed
// once, until the last subscriber leaves); log levels filter per client; one client leaving leaves
// the others (and the upstream) working. Real upstream processes behind in-process gateway sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { waitFor } from '../support/wait.js';
import { startGateway, textOf, upstream, type GatewayClient, type GatewayHarness } from './gateway-harness.js';

const CALL = { timeout: 60_000 };

interface Seen {
  subscribed: string[];
  level: string | null;
  cancelled: number;
}

describe('one pool of upstreams for several clients', () => {
  let gw: GatewayHarness;
  let b: GatewayClient;
  let c: GatewayClient;
  const asked = { a: [] as string[], b: [] as string[] };

  const answering = (who: 'a' | 'b') => (client: Client) =>
    client.setRequestHandler('elicitation/create', async (req) => {
      asked[who].push((req.params as { message: string }).message);
      return { action: 'accept', content: { answer: `from ${who}` } };
    });
  const seen = async (via: GatewayClient = gw): Promise<Seen> => JSON.parse(textOf(await via.client.callTool({ name: 'mcp__solo__seen', arguments: {} }, CALL))) as Seen;
  const messages = (cl: GatewayClient, after = 0) => cl.notes.slice(after).filter((n) => n.method === 'notifications/message');

  beforeAll(async () => {
    gw = await startGateway([upstream('solo')], { capabilities: { elicitation: { form: {} } }, setup: answering('a') });
    b = await gw.connect({ capabilities: { elicitation: { form: {} } }, setup: answering('b') });
    c = await gw.connect({ capabilities: {} });
  }, 60_000);
  afterAll(async () => {
    await c?.close();
    await b?.close();
    await gw?.close();
  });

  it('runs one upstream connection for all three clients', async () => {
    const results = await Promise.all([gw, b, c].map((cl, i) => cl.client.callTool({ name: 'mcp__solo__echo', arguments: { text: `c${i}` } }, CALL)));
    expect(results.map(textOf)).toEqual(['solo:c0', 'solo:c1', 'solo:c2']);
    expect(gw.pool.peekUpstreams()?.manager.status().map((s) => [s.name, s.state])).toEqual([['solo', 'ready']]);
    expect(gw.events.filter((e) => e.type === 'mcp_startup_update' && e.status.state === 'starting')).toHaveLength(1);
  });

  it("while calls of A and B run on one server, what it starts reaches neither; once A's call runs alone, A is asked", async () => {
    const stop = new AbortController();
    const bWaits = b.client.callTool({ name: 'mcp__solo__wait_for_cancel', arguments: {} }, { ...CALL, signal: stop.signal });
    await waitFor(() => b.connection.inFlight === 1, "B's call in flight", 20_000);
    const bNotes = b.notes.length;
    const aNotes = gw.notes.length;
    // Nothing links a 2025 server's elicitation to A's call rather than B's: refused, never shown to B.
    const refused = await gw.client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'for A' } }, CALL);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/calls of several clients are running on MCP server 'solo'.*refuses it rather than ask the wrong client/);
    // Log messages during A's call could be about either: dropped, for both.
    expect(textOf(await gw.client.callTool({ name: 'mcp__solo__chatter', arguments: { steps: 1 } }, CALL))).toBe('solo:chattered 1');
    expect(asked).toEqual({ a: [], b: [] });
    stop.abort('done');
    await expect(bWaits).rejects.toThrow();
    expect(messages(gw, aNotes)).toEqual([]);
    expect(b.notes.slice(bNotes)).toEqual([]);
    // A alone on the server: its elicitation and log messages are A's.
    await waitFor(() => b.connection.inFlight === 0, "B's call ended", 20_000);
    const r = await gw.client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'for A' } }, CALL);
    expect(JSON.parse(textOf(r))).toEqual({ action: 'accept', content: { answer: 'from a' } });
    expect(textOf(await gw.client.callTool({ name: 'mcp__solo__chatter', arguments: { steps: 1 } }, CALL))).toBe('solo:chattered 1');
    expect(asked).toEqual({ a: ['for A'], b: [] });
    expect(messages(gw, aNotes).map((n) => n.params?.data)).toEqual(['step 1', 'alarm 1']);
    expect(b.notes.slice(bNotes)).toEqual([]);
  });

  it('answers an upstream elicitation for a client without elicitation with the refusal, and asks a client that has it', async () => {
    const refused = await c.client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'for C' } }, CALL);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/elicitation failed: .*does not support elicitation/);
    const answered = await b.client.callTool({ name: 'mcp__solo__ask', arguments: { message: 'for B' } }, CALL);
    expect(JSON.parse(textOf(answered))).toEqual({ action: 'accept', content: { answer: 'from b' } });
    expect(asked).toEqual({ a: ['for A'], b: ['for B'] });
  });

  it('sends resources/updated to subscribers only; the upstream is subscribed once, until the last subscriber leaves', async () => {
    const uri = 'gw://solo/static';
    const updated = (n: { method: string; params?: Record<string, unknown> }) => n.method === 'notifications/resources/updated' && n.params?.uri === uri;
    await gw.client.subscribeResource({ uri });
    await b.client.subscribeResource({ uri });
    expect((await seen()).subscribed).toEqual([uri]);

    const [a0, b0, c0] = [gw.notes.length, b.notes.length, c.notes.length];
    await c.client.callTool({ name: 'mcp__solo__touch', arguments: { uri } }, CALL);
    await gw.waitForNote(updated, { after: a0 });
    await b.waitForNote(updated, { after: b0 });
    await c.client.ping();
    expect(c.notes.slice(c0).filter(updated)).toEqual([]);

    // A leaves the subscription; B still holds it upstream.
    await gw.client.unsubscribeResource({ uri });
    expect((await seen()).subscribed).toEqual([uri]);
    const [a1, b1] = [gw.notes.length, b.notes.length];
    await c.client.callTool({ name: 'mcp__solo__touch', arguments: { uri } }, CALL);
    await b.waitForNote(updated, { after: b1 });
    await gw.client.ping();
    expect(gw.notes.slice(a1).filter(updated)).toEqual([]);
  });

  it('filters log messages per client and gives the upstream the most verbose level any client asked for', async () => {
    await gw.client.setLoggingLevel('error');
    expect((await seen()).level).toBe('error');
    await c.client.setLoggingLevel('debug');
    expect((await seen()).level).toBe('debug');
    const before = gw.notes.length;
    await gw.client.callTool({ name: 'mcp__solo__chatter', arguments: { steps: 2 } }, CALL);
    expect(messages(gw, before).map((n) => n.params?.level)).toEqual(['error', 'error']);
    await c.close();
    await waitFor(async () => (await seen()).level === 'error', 'the upstream level back to error once C left', 20_000);
  });

  it('leaves the others and the upstream working when one client goes away; its subscriptions end with it', async () => {
    await b.close();
    await waitFor(async () => (await seen()).subscribed.length === 0, "B's subscription to end upstream", 20_000);
    expect(textOf(await gw.client.callTool({ name: 'mcp__solo__echo', arguments: { text: 'still here' } }, CALL))).toBe('solo:still here');
    expect(gw.events.filter((e) => e.type === 'mcp_startup_update' && e.status.state === 'starting')).toHaveLength(1);
  });
});
