// `switchboard mcp tools --search "<query>"`: what the agent's tool_search would return for a query,
// ranked, with scores (human table or JSON). Loads the search library only when asked.
import type { Config } from '../config/index.js';
import { ToolSearchIndex, type CatalogEntry, type ToolSearchHit } from '../mcp/index.js';

export interface ToolSearchRow {
  rank: number;
  name: string;
  server: string;
  tool: string;
  score: number;
  /** `exact`: the query names the tool; `ranked`: BM25. */
  match: ToolSearchHit['match'];
  /** The server is marked always_loaded: the model has this tool without searching. */
  always_loaded: boolean;
  description: string;
  inputSchema: Record<string, unknown>;
}

export async function searchCatalog(entries: readonly CatalogEntry[], config: Config, query: string, limit: number): Promise<ToolSearchRow[]> {
  const index = await ToolSearchIndex.build(
    entries.map((e) => ({
      name: e.name,
      server: e.server,
      tool: e.tool,
      title: e.definition.title,
      description: e.definition.description ?? '',
      inputSchema: e.definition.inputSchema as Record<string, unknown>,
    })),
  );
  return index.search(query, { limit }).map((h, i) => ({
    rank: i + 1,
    name: h.doc.name,
    server: h.doc.server,
    tool: h.doc.tool,
    score: Math.round(h.score * 1000) / 1000,
    match: h.match,
    always_loaded: config.mcp_servers[h.doc.server]?.always_loaded === true,
    description: h.doc.description,
    inputSchema: h.doc.inputSchema,
  }));
}

export function renderSearchRows(rows: readonly ToolSearchRow[], query: string): string {
  if (rows.length === 0) return `No MCP tool matches ${JSON.stringify(query)}.\n`;
  const width = Math.max(...rows.map((r) => r.name.length));
  const scoreWidth = Math.max(5, ...rows.map((r) => r.score.toFixed(3).length));
  const lines = rows.map((r) => {
    const note = [r.match === 'exact' ? 'exact name' : '', r.always_loaded ? 'always loaded' : ''].filter(Boolean).join(', ');
    const desc = r.description.split('\n')[0]!;
    return `${String(r.rank).padStart(2)}  ${r.score.toFixed(3).padStart(scoreWidth)}  ${r.name.padEnd(width)}  ${desc}${note ? ` (${note})` : ''}`.trimEnd();
  });
  return `${' #'}  ${'score'.padStart(scoreWidth)}  ${'tool'.padEnd(width)}  description\n${lines.join('\n')}\n`;
}
