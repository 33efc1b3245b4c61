// The one line per server that tells a model what it can search for: how many tools a server has
// and what they are called (the first names, alphabetically, within a budget).
import type { ToolSearchDoc } from './search-doc.js';

const LINE_BUDGET = 160;

/** `- <server> (<n> tools): a, b, c, ...`, one line per server, servers sorted by name. */
export function describeServers(docs: readonly ToolSearchDoc[]): string {
  const byServer = new Map<string, string[]>();
  for (const d of docs) {
    const list = byServer.get(d.server);
    if (list) list.push(d.tool);
    else byServer.set(d.server, [d.tool]);
  }
  const lines: string[] = [];
  for (const server of [...byServer.keys()].sort()) {
    const tools = [...new Set(byServer.get(server))].sort();
    let line = `- ${server} (${tools.length} tool${tools.length === 1 ? '' : 's'}): `;
    const shown: string[] = [];
    for (const t of tools) {
      if (line.length + shown.join(', ').length + t.length + 2 > LINE_BUDGET) break;
      shown.push(t);
    }
    line += shown.join(', ') + (shown.length < tools.length ? ', ...' : '');
    lines.push(line);
  }
  return lines.join('\n');
}
