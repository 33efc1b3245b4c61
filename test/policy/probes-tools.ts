// Probes of the tool filter (enabled_tools, disabled_tools) and of [server_auth] rules on the tool
// roads of the gateway: tools/list, tools/call plain and task-augmented, and under --tool-search
// search_tools and call_tool. Each refusal is shown beside an allowed call of the same road that works.
import { expect } from 'vitest';
import type { Conn } from './conn.js';
import type { Road } from './policy-matrix.js';
import { refusal, served, textOf, type Names, type Probe, type ProbeTable, type Target } from './policy-run.js';
import type { Policy } from './policy-table.js';

const FILTERED = /is disabled for MCP server|Unknown tool/;

async function listed(conn: Conn): Promise<string[]> {
  return ((served(await conn.send('tools/list'), 'tools/list').tools ?? []) as { name: string }[]).map((t) => t.name);
}

/** The tool the cell is about, and the group whose caller must be refused it. */
function subject(policy: Policy, n: Names, task: boolean): string[] {
  if (task) {
    const t = n.task!;
    return policy === 'enabled_tools' ? [t.notEnabled] : policy === 'disabled_tools' ? [t.disabled] : [t.denied, ...(n.unseenTool ? [n.unseenTool] : [])];
  }
  return policy === 'enabled_tools' ? [n.notEnabled] : policy === 'disabled_tools' ? [n.disabled] : [n.denied, ...(n.unseenTool ? [n.unseenTool] : [])];
}

/** What the refusal says: the filter's own words (or unknown, where the catalog leaves the tool out); a denied tool is unknown. */
function expectRefusal(policy: Policy, text: string, tool: string): void {
  if (policy === 'deny') expect(text, tool).toBe(`Unknown tool: ${tool}`);
  else expect(text, tool).toMatch(FILTERED);
}

/** tools/call of `tool` with arguments it would accept, through call_tool when `viaCallTool`. */
function callOf(tool: string, n: Names, viaCallTool: boolean): Record<string, unknown> {
  const args = tool === n.task?.tool || tool === n.task?.denied || tool === n.task?.notEnabled || tool === n.task?.disabled ? n.task!.args(1) : { text: 'x' };
  return viaCallTool ? { name: 'call_tool', arguments: { name: tool, arguments: args } } : { name: tool, arguments: args };
}

const listProbe = (policy: Policy): Probe => async (t: Target, road: Road) => {
  const conn = await t.open(road.era, 'team');
  try {
    const names = await listed(conn);
    const pinned = t.surface === 'tool-search';
    expect(names).toContain(pinned ? 'search_tools' : t.names.echo.name);
    if (pinned) expect(names).toContain(t.names.echo.name);
    for (const tool of subject(policy, t.names, false)) expect(names, tool).not.toContain(tool);
  } finally {
    await conn.close();
  }
};

const callProbe = (policy: Policy, options: { task: boolean; viaCallTool: boolean }): Probe => async (t: Target, road: Road) => {
  const conn = await t.open(road.era, 'team');
  try {
    const n = t.names;
    // The allowed call of the same road works (a task-augmented one creates its task).
    const allowed = options.task ? n.task!.tool : n.echo.name;
    const ok = served(await conn.send('tools/call', callOf(allowed, n, options.viaCallTool), { task: options.task }), `the allowed ${allowed}`);
    if (options.task && !options.viaCallTool) expect(ok.task ?? ok.taskId, `a task for ${allowed}: ${JSON.stringify(ok)}`).toBeDefined();
    else expect(ok.isError, `${allowed}: ${textOf(ok)}`).toBeFalsy();
    for (const tool of subject(policy, n, options.task)) {
      const text = refusal(await conn.send('tools/call', callOf(tool, n, options.viaCallTool), { task: options.task }), tool);
      expectRefusal(policy, text, tool);
    }
  } finally {
    await conn.close();
  }
};

/** search_tools finds what the caller may call, and nothing the filter or the rules take away. */
const searchProbe = (policy: Policy): Probe => async (t: Target, road: Road) => {
  const conn = await t.open(road.era, 'team');
  try {
    const found = async (query: string) => {
      const result = served(await conn.send('tools/call', { name: 'search_tools', arguments: { query, limit: 50 } }), `search ${query}`);
      return ((result.structuredContent as { tools: { name: string }[] }).tools ?? []).map((x) => x.name);
    };
    expect(await found(t.names.task!.tool)).toContain(t.names.task!.tool);
    for (const tool of subject(policy, t.names, true)) expect(await found(tool), tool).not.toContain(tool);
  } finally {
    await conn.close();
  }
};

/** call_tool of a denied tool with no arguments: refused as unknown, without its schema's words. */
const callToolDenyProbe: Probe = async (t, road) => {
  await callProbe('deny', { task: false, viaCallTool: true })(t, road);
  const conn = await t.open(road.era, 'team');
  try {
    for (const tool of subject('deny', t.names, false)) {
      const text = refusal(await conn.send('tools/call', { name: 'call_tool', arguments: { name: tool } }), tool);
      expect(text, 'the view is checked before the arguments').toBe(`Unknown tool: ${tool}`);
    }
  } finally {
    await conn.close();
  }
};

const TOOL_POLICIES: readonly Policy[] = ['enabled_tools', 'disabled_tools', 'deny'];

export const toolProbes: ProbeTable = (policy, road) => {
  if (!TOOL_POLICIES.includes(policy) || road.surface === 'mcp-server') return undefined;
  switch (road.row.road) {
    case 'tools/list':
      return listProbe(policy);
    case 'tools/call':
    case 'tools/call (listed tool)':
      return callProbe(policy, { task: false, viaCallTool: false });
    case 'tools/call+task':
      return callProbe(policy, { task: true, viaCallTool: false });
    case 'tools/call search_tools':
      return searchProbe(policy);
    case 'tools/call call_tool':
      return policy === 'deny' ? callToolDenyProbe : callProbe(policy, { task: false, viaCallTool: true });
    case 'tools/call+task call_tool':
      return callProbe(policy, { task: true, viaCallTool: true });
    default:
      return undefined;
  }
};
