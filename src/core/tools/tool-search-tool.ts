// The `tool_search` tool: the model searches the deferred MCP tools and gets their names,
// descriptions and schemas; the tools it got are offered from then on in the thread. What it got is
// read back from the conversation itself (the call and its output), so it survives turns, rollouts
// and `exec resume` with nothing stored beside them.
import { DEFAULT_SEARCH_LIMIT, describeServers, type ToolSearchDoc, type ToolSearchIndex } from '../../mcp/index.js';
import type { ResponseItem } from '../model/model-types.js';
import type { Tool } from './tool.js';

export const TOOL_SEARCH_TOOL_NAME = 'tool_search';
const MAX_LIMIT = 20;

/** What one tool_search call returns to the model (its output, as JSON text). */
interface SearchOutput {
  query: string;
  tools: { name: string; server: string; description: string; parameters: Record<string, unknown>; score: number }[];
  note?: string;
}

function description(docs: readonly ToolSearchDoc[]): string {
  return [
    'Search the tools of the MCP servers below. Their tools are not loaded yet: call this first, with words',
    'for what you need or a tool\'s exact name, and the matching tools (name, description, parameters) are',
    'returned and can be called from then on in this conversation. Search again for other tools.',
    'Servers:',
    describeServers(docs),
  ].join('\n');
}

export function createToolSearchTool(docs: readonly ToolSearchDoc[], index: () => Promise<ToolSearchIndex>): Tool {
  return {
    name: TOOL_SEARCH_TOOL_NAME,
    description: description(docs),
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, or its exact name (for example "create a GitHub issue" or "read_file")' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT})` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async run(args) {
      const a = (typeof args === 'object' && args !== null ? args : {}) as { query?: unknown; limit?: unknown };
      if (typeof a.query !== 'string' || a.query.trim() === '') return { output: 'tool_search needs a non-empty "query" string', success: false };
      const limit = typeof a.limit === 'number' && Number.isFinite(a.limit) ? Math.min(MAX_LIMIT, Math.max(1, Math.floor(a.limit))) : DEFAULT_SEARCH_LIMIT;
      const hits = (await index()).search(a.query, { limit });
      const out: SearchOutput = {
        query: a.query,
        tools: hits.map((h) => ({ name: h.doc.name, server: h.doc.server, description: h.doc.description, parameters: h.doc.inputSchema, score: Math.round(h.score * 1000) / 1000 })),
      };
      if (hits.length === 0) out.note = 'No tool matched. Try other words, or a server name from this tool\'s description.';
      return { output: JSON.stringify(out), success: true };
    },
  };
}

/** Names of the tools earlier tool_search calls in this conversation returned, in the order they came. */
export function toolsFoundIn(history: readonly ResponseItem[]): string[] {
  const searches = new Set<string>();
  const found = new Set<string>();
  for (const item of history) {
    if (item.type === 'function_call' && item.name === TOOL_SEARCH_TOOL_NAME) searches.add(item.call_id);
    else if (item.type === 'function_call_output' && searches.has(item.call_id) && typeof item.output === 'string') {
      for (const name of namesIn(item.output)) found.add(name);
    }
  }
  return [...found];
}

function namesIn(output: string): string[] {
  try {
    const parsed = JSON.parse(output) as Partial<SearchOutput>;
    return Array.isArray(parsed.tools) ? parsed.tools.map((t) => t?.name).filter((n): n is string => typeof n === 'string') : [];
  } catch {
    // An output that is not ours (an error text, an aborted call) loaded nothing.
    return [];
  }
}
