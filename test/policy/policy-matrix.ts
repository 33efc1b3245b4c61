// The policy table expanded into roads: each row of policy-table.ts on every surface that serves it, in
// each revision and transport it exists in, with its cells for that revision. Over stdio the one client
// is the local user, so the [server_auth] columns do not apply there. And the summary the matrix prints.
import { CODEX_HOST_ROWS, CODEX_ROWS, ERA_NAMES, GATEWAY_HOST_ROWS, GATEWAY_ROWS, POLICIES, TASK_ROWS, TOOL_SEARCH_ROWS } from './policy-table.js';
import type { Cell, Era, Policy, Row, Surface, Transport } from './policy-table.js';

/** What each column of the table is. */
export const POLICY_TITLES: Record<Policy, string> = {
  enabled_tools: '[mcp_servers.*] enabled_tools',
  disabled_tools: '[mcp_servers.*] disabled_tools',
  deny: '[server_auth] rule (deny, or outside allow)',
  rate: '[server_auth.limits] requests_per_minute',
  calls: '[server_auth.limits] concurrent_calls',
  audit: 'audit record',
  span: 'OTLP server span',
  ceiling: 'codex argument ceilings (issue 30)',
  bound: 'state bound to its caller (issue 30)',
  uri: 'canonical resource URIs (issue 30)',
  view: 'view filtering of what the server sends (issue 30)',
};

export interface Road {
  /** `serve http 2025-11-25 tools/call+task` */
  id: string;
  surface: Surface;
  transport: Transport;
  era: Era;
  row: Row;
  cells: Record<Policy, Cell>;
}

/** Which rows each surface serves; `serve --tool-search` serves the gateway's other handlers as `serve` does. */
export const SURFACE_ROWS: Record<Surface, readonly Row[]> = {
  serve: [...GATEWAY_ROWS, ...TASK_ROWS, ...GATEWAY_HOST_ROWS],
  transparent: [...GATEWAY_ROWS, ...TASK_ROWS, ...GATEWAY_HOST_ROWS],
  'tool-search': TOOL_SEARCH_ROWS,
  'mcp-server': [...CODEX_ROWS, ...TASK_ROWS, ...CODEX_HOST_ROWS],
};

const SURFACES = Object.keys(SURFACE_ROWS) as Surface[];
const SERVER_AUTH: readonly Policy[] = ['deny', 'rate', 'calls', 'audit', 'ceiling', 'bound', 'uri', 'view'];
const STDIO: Cell = { na: 'over stdio the one client is the local user: [server_auth] (rules, limits, audit, ceilings) is for HTTP callers' };

function cellOf(row: Row, policy: Policy, era: Era, transport: Transport): Cell {
  const spec = row.cells[policy];
  const cell = 'legacy' in spec ? spec[era] : spec;
  return transport === 'stdio' && SERVER_AUTH.includes(policy) && 'holds' in cell ? STDIO : cell;
}

export interface Slice {
  surfaces?: readonly Surface[];
  transport?: Transport;
}

/** Which roads each test file runs: together every road, once (policy-roads.test.ts checks it). */
export const SLICES = {
  'serve-http': { surfaces: ['serve'], transport: 'http' },
  'tool-search-http': { surfaces: ['tool-search'], transport: 'http' },
  'transparent-http': { surfaces: ['transparent'], transport: 'http' },
  'agent-http': { surfaces: ['mcp-server'], transport: 'http' },
  stdio: { transport: 'stdio' },
} as const satisfies Record<string, Slice>;

export function roads(filter: Slice = {}): Road[] {
  const out: Road[] = [];
  for (const surface of filter.surfaces ?? SURFACES) {
    for (const transport of ['http', 'stdio'] as const) {
      if (filter.transport && filter.transport !== transport) continue;
      for (const row of SURFACE_ROWS[surface]) {
        if (!row.transports.includes(transport)) continue;
        for (const era of row.eras) {
          const cells = Object.fromEntries(POLICIES.map((p) => [p, cellOf(row, p, era, transport)])) as Record<Policy, Cell>;
          out.push({ id: `${surface} ${transport} ${ERA_NAMES[era]} ${row.road}`, surface, transport, era, row, cells });
        }
      }
    }
  }
  return out;
}

/** The matrix in numbers, every n/a reason with how many cells it covers, and the cells of known gaps. */
export function summary(all: readonly Road[]): string {
  const lines: string[] = [];
  const checked = all.flatMap((r) => POLICIES.filter((p) => 'holds' in r.cells[p]).map((p) => ({ road: r, policy: p })));
  const na = all.length * POLICIES.length - checked.length;
  lines.push(`policy matrix: ${all.length} roads x ${POLICIES.length} policies = ${all.length * POLICIES.length} cells: ${checked.length} checked, ${na} n/a`);
  for (const surface of SURFACES) {
    for (const transport of ['http', 'stdio'] as const) {
      const mine = all.filter((r) => r.surface === surface && r.transport === transport);
      if (mine.length === 0) continue;
      const n = mine.reduce((sum, r) => sum + POLICIES.filter((p) => 'holds' in r.cells[p]).length, 0);
      lines.push(`  ${surface} ${transport}: ${mine.length} roads, ${n} cells checked`);
    }
  }
  lines.push('per policy (checked / n/a):');
  for (const p of POLICIES) {
    const n = checked.filter((c) => c.policy === p).length;
    lines.push(`  ${p.padEnd(15)} ${String(n).padStart(4)} / ${String(all.length - n).padStart(4)}  ${POLICY_TITLES[p]}`);
  }
  lines.push('n/a, and why:');
  const reasons = new Map<string, number>();
  for (const r of all) for (const p of POLICIES) {
    const cell = r.cells[p];
    if ('na' in cell) reasons.set(`${p}: ${cell.na}`, (reasons.get(`${p}: ${cell.na}`) ?? 0) + 1);
  }
  for (const [reason, count] of [...reasons].sort()) lines.push(`  ${String(count).padStart(4)}  ${reason}`);
  const gaps = checked.filter((c) => { const cell = c.road.cells[c.policy]; return 'holds' in cell && cell.gap; });
  lines.push(`cells of known gaps being closed (${gaps.length}):`);
  for (const g of gaps) lines.push(`  ${g.policy} @ ${g.road.id}: ${(g.road.cells[g.policy] as { gap: string }).gap}`);
  return lines.join('\n');
}
