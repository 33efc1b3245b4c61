// `serve --tool-search` with a real SDK client in front and real upstream processes behind:
// tools/list offers search_tools and call_tool plus the always_loaded server's tools; a search
// returns the tool with its schema; call_tool checks arguments against that schema and routes the
// call; a tool added upstream (list_changed) is found by the next search.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer } from '../mcp/manager-harness.js';
import { startGateway, textOf, type GatewayHarness, type Note } from './gateway-harness.js';

const CALL = { timeout: 60_000 };
let gw: GatewayHarness | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

interface Found {
  query: string;
  tools: { name: string; server: string; description: string; inputSchema: Record<string, unknown>; score: number }[];
}

async function search(query: string, limit?: number): Promise<Found> {
  const result = await gw!.client.callTool({ name: 'search_tools', arguments: { query, ...(limit ? { limit } : {}) } }, CALL);
  expect(result.isError).not.toBe(true);
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as unknown as Found;
}

describe('gateway --tool-search', () => {
  it('lists search_tools, call_tool and the always_loaded tools; searches, validates and calls', async () => {
    gw = await startGateway([fixtureServer('alpha', { MGR_TOOLS: 'deploy_service,fetch_weather,echo' }), fixtureServer('pinned', { MGR_TOOLS: 'status' })], {
      toolSearch: { alwaysLoaded: ['pinned'] },
    });
    const listed = (await gw.client.listTools()).tools;
    expect(listed.map((t) => t.name).sort()).toEqual(['call_tool', 'mcp__pinned__add_tool', 'mcp__pinned__crash', 'mcp__pinned__status', 'search_tools']);
    const searchTool = listed.find((t) => t.name === 'search_tools')!;
    expect(searchTool.description).toContain('- alpha (5 tools): add_tool, crash, deploy_service, echo, fetch_weather');
    expect(searchTool.description).not.toContain('- pinned');

    // An exact name comes first, with the schema the client needs to call it.
    const found = await search('deploy_service', 3);
    expect(found.tools[0]).toMatchObject({ name: 'mcp__alpha__deploy_service', server: 'alpha', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } });
    expect(found.tools.some((t) => t.server === 'pinned')).toBe(false);
    expect((await search('weather')).tools[0]!.name).toBe('mcp__alpha__fetch_weather');

    const ok = await gw.client.callTool({ name: 'call_tool', arguments: { name: 'mcp__alpha__deploy_service', arguments: { text: 'v2' } } }, CALL);
    expect(ok.isError).not.toBe(true);
    expect(textOf(ok)).toBe('alpha:deploy_service:v2');
    // A raw name that names one tool is enough.
    expect(textOf(await gw.client.callTool({ name: 'call_tool', arguments: { name: 'fetch_weather', arguments: {} } }, CALL))).toBe('alpha:fetch_weather:');
    // Arguments are checked against the real schema before the upstream sees them.
    const bad = await gw.client.callTool({ name: 'call_tool', arguments: { name: 'mcp__alpha__deploy_service', arguments: { text: 5 } } }, CALL);
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Invalid arguments for tool mcp__alpha__deploy_service: .*text.* must be string/);
    await expect(gw.client.callTool({ name: 'call_tool', arguments: { name: 'mcp__alpha__nope', arguments: {} } }, CALL)).rejects.toThrow(/Unknown tool: mcp__alpha__nope/);
    // The always_loaded tools are called directly.
    expect(textOf(await gw.client.callTool({ name: 'mcp__pinned__status', arguments: { text: 'up' } }, CALL))).toBe('pinned:status:up');
  });

  it('keeps the index current: a tool added upstream is found after list_changed', async () => {
    gw = await startGateway([fixtureServer('alpha', { MGR_TOOLS: 'echo' })], { toolSearch: { alwaysLoaded: [] } });
    expect((await search('rotate_keys')).tools.map((t) => t.name)).not.toContain('mcp__alpha__rotate_keys');
    await gw.client.callTool({ name: 'call_tool', arguments: { name: 'mcp__alpha__add_tool', arguments: { name: 'rotate_keys' } } }, CALL);
    const changed = await gw.waitForEvent((e) => e.type === 'mcp_tools_changed' && e.added.includes('rotate_keys'));
    await gw.waitForNote((n: Note) => n.method === 'notifications/tools/list_changed', { after: gw.notesAt(changed) });
    const found = await search('rotate_keys');
    expect(found.tools[0]!.name).toBe('mcp__alpha__rotate_keys');
    expect(textOf(await gw.client.callTool({ name: 'call_tool', arguments: { name: 'mcp__alpha__rotate_keys', arguments: { text: 'now' } } }, CALL))).toBe('alpha:rotate_keys:now');
  });
});
