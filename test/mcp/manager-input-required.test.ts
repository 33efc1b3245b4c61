// A tool that asks for confirmation, on a 2026-07-28 server (an input-required result) and on a 2025
// server (an elicitation/create request from the server), goes through the manager's elicitation
// routing the same way: the running call's handler is asked, and its answer decides.
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import type { CallElicitation } from '../../src/mcp/index.js';
import { makeHarness, textOf, type Harness } from './manager-harness.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const FIXTURE = fixtureProgram('mcp/stdio-v2-server.mjs');
const server = (name: string, env: Record<string, string>) =>
  parseMcpServerConfig(name, { command: process.execPath, args: [FIXTURE], env: { FIXTURE_INPUT_REQUIRED: '1', ...env } }).config;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('confirmation through the manager, whichever revision the server speaks', () => {
  it('reaches the call’s elicitation handler from a 2026-07-28 server exactly as from a 2025 one', async () => {
    h = await makeHarness([server('modern', { FIXTURE_SERVE: 'modern-only' }), server('legacy', {})], { snapshots: false });
    await h.manager.listAllTools({ wait: 'all' });
    expect(h.manager.status().map((s) => [s.name, s.protocol])).toEqual([
      ['modern', '2026-07-28'],
      ['legacy', '2025-11-25'],
    ]);

    const asked: CallElicitation[] = [];
    const confirm = async (e: CallElicitation) => (asked.push(e), { action: 'accept' as const, content: { confirm: true } });
    const refuse = async (e: CallElicitation) => (asked.push(e), { action: 'decline' as const });
    for (const name of ['modern', 'legacy']) {
      expect(textOf(await h.manager.callTool(`mcp__${name}__deploy`, { env: name }, { onElicitation: confirm }))).toBe(`deployed to ${name}`);
      expect(textOf(await h.manager.callTool(`mcp__${name}__deploy`, { env: name }, { onElicitation: refuse }))).toBe('deploy cancelled');
    }
    // The same request reached the handler from both: only the server, its id, the text and the
    // 2025 request's own _meta (the call's progress token) differ.
    expect(asked.map((e) => [e.server, e.request.message])).toEqual([
      ['modern', 'Deploy to modern?'],
      ['modern', 'Deploy to modern?'],
      ['legacy', 'Deploy to legacy?'],
      ['legacy', 'Deploy to legacy?'],
    ]);
    const body = (e: CallElicitation) => ({ ...e.request, message: '', _meta: undefined });
    expect(body(asked[0]!)).toEqual(body(asked[2]!));
    expect(asked[0]!.request.requestedSchema).toMatchObject({ type: 'object', properties: { confirm: { type: 'boolean' } } });
  });

  it('without a handler for the call, a 2026-07-28 confirmation is declined as a 2025 one is', async () => {
    h = await makeHarness([server('modern', { FIXTURE_SERVE: 'modern-only' }), server('legacy', {})], { snapshots: false });
    await h.manager.listAllTools({ wait: 'all' });
    for (const name of ['modern', 'legacy']) {
      expect(textOf(await h.manager.callTool(`mcp__${name}__deploy`, { env: name }))).toBe('deploy cancelled');
    }
  });
});
