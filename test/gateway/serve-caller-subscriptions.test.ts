// `switchboard serve --http` acting as each caller: resource subscriptions on an `identity = "caller"`
// server (the OAuth fixture's upstream, reached by token exchange, whose `fixture://notes` a session
// subscribes to and `touch_notes` updates for that session alone). Each caller's subscription is made
// on its own upstream connection, with its own identity; an update on one caller's connection reaches
// that caller's sessions and listen streams only; one caller leaving never ends another's. Each
// check ends on an update the other caller gets itself, which travels its stream after anything
// leaked would have: a count that stays as it was proves nothing leaked.
import { describe, expect, it } from 'vitest';
import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { NOTES_URI } from '../fixtures/oauth-fixture-resource.js';
import { callerClient, useExchangeGateway } from './caller-harness.js';

describe('serve --http: resource subscriptions on a server that acts as each caller', () => {
  const suite = useExchangeGateway('sb-caller-subscriptions-', { updatableResource: true });
  const { clients } = suite;

  /** A caller's client and the updates of fixture://notes it hears. */
  async function caller(sub: string, modern = false): Promise<{ client: Client; updates: () => number }> {
    const client = await callerClient(suite.mcpUrl, await suite.fixture.mintAccessToken({ sub, client_id: `cli-${sub}` }), clients, modern);
    let heard = 0;
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      if (n.params.uri === NOTES_URI) heard += 1;
    });
    return { client, updates: () => heard };
  }
  const touch = async (c: Client) => JSON.stringify((await c.callTool({ name: 'mcp__team__touch_notes', arguments: {} })).content);
  const heard = (c: { updates: () => number }, count: number) => expect.poll(c.updates, { timeout: 20_000 }).toBe(count);
  /** Whom the upstream saw `method` of fixture://notes from (by the subject of the token presented), in order, since request `from`. */
  const upstreamAsked = (method: string, from: number) =>
    suite.fixture
      .requestsTo('/mcp')
      .slice(from)
      .filter((r) => r.body.includes(`"${method}"`) && r.body.includes(NOTES_URI))
      .map((r) => suite.fixture.subjectOf(r.authorization!.replace(/^Bearer /, '')));

  it('subscribes each caller on its own connection; an update reaches only the caller whose connection had it', async () => {
    const from = suite.fixture.requestsTo('/mcp').length;
    const alice = await caller('alice');
    const bob = await caller('bob');
    const bobModern = await caller('bob', true);
    await alice.client.subscribeResource({ uri: NOTES_URI });
    await bob.client.subscribeResource({ uri: NOTES_URI });
    const listening = await bobModern.client.listen({ resourceSubscriptions: [NOTES_URI] });
    try {
      // One upstream subscription per caller, each with that caller's own identity (bob's two clients share his).
      await expect.poll(() => upstreamAsked('resources/subscribe', from).sort(), { timeout: 20_000 }).toEqual(['alice', 'bob']);

      expect(await touch(alice.client)).toContain('touched');
      await heard(alice, 1);
      expect(await touch(bob.client)).toContain('touched');
      await heard(bob, 1);
      await heard(bobModern, 1);
      // Alice heard nothing of bob's: her own next update is her second.
      await touch(alice.client);
      await heard(alice, 2);
      expect([bob.updates(), bobModern.updates()]).toEqual([1, 1]);

      // Alice unsubscribes: her upstream subscription ends (as alice), bob's stands.
      const before = suite.fixture.requestsTo('/mcp').length;
      await alice.client.unsubscribeResource({ uri: NOTES_URI });
      expect(upstreamAsked('resources/unsubscribe', before)).toEqual(['alice']);
      expect(await touch(alice.client)).toContain('not subscribed');
      expect(await touch(bob.client)).toContain('touched');
      await heard(bob, 2);
      await heard(bobModern, 2);
      expect(alice.updates()).toBe(2);
    } finally {
      await listening.close();
    }
    // Bob's listen stream closed: his 2025 session still holds his subscription.
    expect(await touch(bob.client)).toContain('touched');
    await heard(bob, 3);
    expect(bobModern.updates()).toBe(2);
  }, 90_000);

  it('a caller\'s session that closes ends that caller\'s subscription only', async () => {
    const carol = await caller('carol');
    const dave = await caller('dave');
    await carol.client.subscribeResource({ uri: NOTES_URI });
    await dave.client.subscribeResource({ uri: NOTES_URI });
    const before = suite.fixture.requestsTo('/mcp').length;
    await (carol.client.transport as StreamableHTTPClientTransport).terminateSession();
    await expect.poll(() => upstreamAsked('resources/unsubscribe', before), { timeout: 20_000 }).toEqual(['carol']);
    expect(await touch(dave.client)).toContain('touched');
    await heard(dave, 1);
    // A new session of carol's finds her upstream subscription gone, so the next one is made afresh.
    const again = await caller('carol');
    expect(await touch(again.client)).toContain('not subscribed');
    await again.client.subscribeResource({ uri: NOTES_URI });
    expect(await touch(again.client)).toContain('touched');
    await heard(again, 1);
    expect(await touch(dave.client)).toContain('touched');
    await heard(dave, 2);
  }, 60_000);
});
