// Security: connector metadata (connector_id, connector_name, …) from a server the host does not trust
// in code never gets through — not on the first listing, not after tools/list_changed, not from a
// startup snapshot, not in `mcp tools --json`, not to the model — even for a server named like
// Codex's own connector server. Trust granted in code keeps it (so these checks can fail).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTOR_META_KEYS } from '../../src/mcp/index.js';
import { mcpToolSourceFrom } from '../../src/core/index.js';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { EventReader, makeHarness as makeAgentHarness, text, type Harness as AgentHarness } from '../support/agent-harness.js';
import { REPO, runCliProcess } from '../support/cli.js';
import { fixtureServer, makeHarness, MANAGER_FIXTURE, type Harness } from '../mcp/manager-harness.js';
import { tempDir, removeTree } from '../support/temp.js';

const META = { connector_id: 'connector_gmail', connector_name: 'Gmail', connector_display_name: 'Gmail', connector_description: 'Mail', connectorDescription: 'Mail', custom: 'kept' };
const KNOBS = { MGR_TOOL_META: JSON.stringify(META) };
const connectorKeysIn = (value: unknown): string[] => CONNECTOR_META_KEYS.filter((k) => JSON.stringify(value).includes(`"${k}"`));

let h: Harness | undefined;
let agent: AgentHarness | undefined;
let model: FakeModelServer | undefined;
let home: string | undefined;
beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
});
afterEach(async () => {
  await agent?.cleanup();
  await h?.close();
  await model?.close();
  if (home) await removeTree(home);
  h = agent = model = home = undefined;
});

describe('security: connector metadata', { timeout: 60_000 }, () => {
  it('is stripped from an untrusted server named codex_apps, on the first listing and after list_changed; kept when trusted in code', async () => {
    h = await makeHarness([fixtureServer('codex_apps', KNOBS), fixtureServer('granted', KNOBS)], { trusted: ['granted'] });
    await h.manager.waitForStartup();
    const first = await h.manager.listAllTools({ wait: 'all' });
    expect(connectorKeysIn(first.filter((e) => e.server === 'codex_apps'))).toEqual([]);
    expect(first.find((e) => e.server === 'codex_apps' && e.tool === 'echo')!.definition._meta).toEqual({ custom: 'kept' });
    expect(connectorKeysIn(first.filter((e) => e.server === 'granted'))).toEqual([...CONNECTOR_META_KEYS]);
    // A tool added later arrives through tools/list_changed and is stripped the same way.
    await h.manager.callTool('mcp__codex_apps__add_tool', { name: 'late' });
    await h.waitFor((e) => e.type === 'mcp_tools_changed' && e.server === 'codex_apps' && e.added.includes('late'));
    const later = await h.manager.listAllTools({ wait: 'none' });
    expect(later.find((e) => e.server === 'codex_apps' && e.tool === 'late')!.definition._meta).toEqual({ custom: 'kept' });
    expect(connectorKeysIn(later.filter((e) => e.server === 'codex_apps'))).toEqual([]);
  });

  it('is stripped in `mcp tools --json`, live and from the startup snapshot (--no-wait)', async () => {
    home = await tempDir('sb-meta-');
    writeFileSync(
      path.join(home, 'config.toml'),
      ['[mcp_servers.codex_apps]', `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(MANAGER_FIXTURE)}]`, `env = { MGR_NAME = "apps", MGR_TOOL_META = ${JSON.stringify(KNOBS.MGR_TOOL_META)} }`].join('\n'),
    );
    const live = await runCliProcess(['mcp', 'tools', '--json'], { home });
    expect(live.code, live.stderr).toBe(0);
    const snapshot = await runCliProcess(['mcp', 'tools', '--json', '--no-wait'], { home });
    expect(snapshot.code, snapshot.stderr).toBe(0);
    for (const out of [live.stdout, snapshot.stdout]) {
      const tools = JSON.parse(out) as { name: string; _meta?: unknown; source: string }[];
      expect(tools.map((t) => t.name)).toContain('mcp__codex_apps__echo');
      expect(connectorKeysIn(tools)).toEqual([]);
      expect(out).toMatch(/"custom": "kept"/); // the rest of _meta is there: the check looks at real metadata
    }
    expect((JSON.parse(snapshot.stdout) as { source: string }[])[0]!.source).toBe('snapshot');
  });

  it('never reaches the model', async () => {
    h = await makeHarness([fixtureServer('codex_apps', KNOBS)]);
    model = await startFakeModelServer();
    agent = await makeAgentHarness(model, { mcp: mcpToolSourceFrom(h.manager) });
    model.enqueue(responsesTurn({ calls: [{ id: 'c1', name: 'mcp__codex_apps__echo', args: { text: 'hi' } }] }), responsesTurn({ text: 'done' }));
    const thread = await agent.manager.start();
    const events = new EventReader(thread);
    await events.turnEnd(await thread.submit(text('use the connector')));
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[0]!.body.tools)).toContain('mcp__codex_apps__echo');
    for (const req of model.requests) {
      const body = JSON.stringify(req.body);
      expect(body).not.toContain('connector_gmail');
      expect(connectorKeysIn(req.body)).toEqual([]);
    }
  });
});
