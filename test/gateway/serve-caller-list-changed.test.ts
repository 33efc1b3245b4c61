// `switchboard serve --http` acting as each caller: a list change on one caller's own upstream
// connection (the OAuth fixture's upstream, reached by token exchange, whose sessions can add tools
// and prompts to themselves) reaches that caller's sessions and listen streams only, never another
// caller's. Each check ends on a change the other caller makes itself, which travels the same
// stream after anything leaked would have: a count that stays at one proves nothing leaked.
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { callerClient, useExchangeGateway } from './caller-harness.js';

const TOOLS = 'notifications/tools/list_changed';
const PROMPTS = 'notifications/prompts/list_changed';

describe('serve --http: list changes on a caller\'s own connection reach that caller only', () => {
  const suite = useExchangeGateway('sb-caller-list-changed-', { mutableLists: true });
  const { clients } = suite;

  /** A caller's client and the list changes it hears (on its session's stream, or a listen stream). */
  async function caller(sub: string, modern = false): Promise<{ client: Client; heard: Record<string, number> }> {
    const client = await callerClient(suite.mcpUrl, await suite.fixture.mintAccessToken({ sub, client_id: `cli-${sub}` }), clients, modern);
    const heard: Record<string, number> = { [TOOLS]: 0, [PROMPTS]: 0 };
    for (const method of [TOOLS, PROMPTS] as const) client.setNotificationHandler(method, () => void (heard[method] = heard[method]! + 1));
    return { client, heard };
  }
  const register = (c: Client, kind: 'tool' | 'prompt', name: string) => c.callTool({ name: `mcp__team__register_${kind}`, arguments: { name } });
  const heardOnce = (heard: Record<string, number>, method: string, count = 1) => expect.poll(() => heard[method], { timeout: 20_000 }).toBe(count);

  it('tells only the caller whose connection changed, on 2025 sessions and on a 2026-07-28 listen stream', async () => {
    // The first caller's list becomes the server's reference list, a change every client hears: made
    // by another caller before these connect, so what they hear below is only what the test does.
    const carol = await caller('carol');
    expect((await carol.client.listTools()).tools.map((t) => t.name)).toContain('mcp__team__register_tool');
    const alice = await caller('alice');
    const bob = await caller('bob');
    const bobModern = await caller('bob', true);
    const listening = await bobModern.client.listen({ toolsListChanged: true, promptsListChanged: true });
    try {
      // Every connection lists first: the caller connections exist before anything changes.
      for (const c of [alice, bob, bobModern]) expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('mcp__team__register_tool');

      await register(alice.client, 'prompt', 'alice_prompt');
      await heardOnce(alice.heard, PROMPTS);
      expect((await alice.client.listPrompts()).prompts.map((p) => p.name)).toContain('team__alice_prompt');
      expect((await bob.client.listPrompts()).prompts.map((p) => p.name)).not.toContain('team__alice_prompt');

      await register(alice.client, 'tool', 'alice_tool');
      await heardOnce(alice.heard, TOOLS);
      await expect.poll(async () => (await alice.client.listTools()).tools.map((t) => t.name), { timeout: 20_000 }).toContain('mcp__team__alice_tool');
      expect((await bob.client.listTools()).tools.map((t) => t.name)).not.toContain('mcp__team__alice_tool');

      // Bob's own changes: his session and his listen stream hear them, and nothing of alice's before.
      await register(bob.client, 'prompt', 'bob_prompt');
      await register(bob.client, 'tool', 'bob_tool');
      for (const b of [bob, bobModern]) {
        await heardOnce(b.heard, PROMPTS);
        await heardOnce(b.heard, TOOLS);
      }
      // And alice heard nothing of bob's: her own next change is her second of each.
      await register(alice.client, 'prompt', 'alice_prompt_2');
      await register(alice.client, 'tool', 'alice_tool_2');
      await heardOnce(alice.heard, PROMPTS, 2);
      await heardOnce(alice.heard, TOOLS, 2);
      expect([bob.heard, bobModern.heard]).toEqual([
        { [TOOLS]: 1, [PROMPTS]: 1 },
        { [TOOLS]: 1, [PROMPTS]: 1 },
      ]);
    } finally {
      await listening.close();
    }
  }, 90_000);
});
