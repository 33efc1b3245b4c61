// Which MCP tools a model request carries when tool search may be on: all of them (`off`, or `auto`
// under the threshold), or the always-loaded servers' tools, the ones the thread found with
// tool_search, and the tool_search tool itself (`on`, or `auto` over 10% of the context window).
import { decideToolSearch, ToolSearchCache, type AutoDecision, type ToolSearchDoc, type ToolSearchMode } from '../../mcp/index.js';
import type { McpToolDescriptor } from '../mcp-tool-source.js';
import type { ResponseItem } from '../model/model-types.js';
import { createToolSearchTool, toolsFoundIn } from './tool-search-tool.js';
import type { Tool } from './tool.js';

/** A thread's tool-search settings (from config.toml: tool_search, model_context_window, always_loaded). */
export interface ToolSearchSettings {
  mode: ToolSearchMode;
  model: string;
  /** Configured window (tokens); null: the model's known window, else an assumed 128k. */
  contextWindow: number | null;
  /** Servers whose tools are never deferred. */
  alwaysLoaded: readonly string[];
}

export interface DeferredSelection {
  /** The MCP tools this request carries. */
  offered: McpToolDescriptor[];
  /** The tool_search tool, when tool search is on. */
  searchTool: Tool | null;
  decision: AutoDecision;
}

const MAX_DECISIONS = 4;

function toDoc(d: McpToolDescriptor): ToolSearchDoc {
  return { name: d.name, server: d.server, tool: d.tool, title: d.title, description: d.description, inputSchema: d.inputSchema };
}

/** Shared by a manager's threads: one search index and one auto decision, reused while the catalog stays the same. */
export class DeferredTools {
  private readonly cache = new ToolSearchCache();
  /** Recent `auto` decisions by catalog and model (a few, for threads on different models). */
  private readonly decisions = new Map<string, Promise<AutoDecision>>();

  private decide(mcp: readonly McpToolDescriptor[], s: ToolSearchSettings): Promise<AutoDecision> {
    if (s.mode !== 'auto') return decideToolSearch(s.mode, '', s.model, s.contextWindow);
    const json = JSON.stringify(mcp.map((d) => ({ name: d.name, description: d.description, parameters: d.inputSchema })));
    const key = `${s.mode}\u0000${s.model}\u0000${s.contextWindow ?? ''}\u0000${json}`;
    let decision = this.decisions.get(key);
    if (!decision) {
      decision = decideToolSearch(s.mode, json, s.model, s.contextWindow);
      this.decisions.set(key, decision);
      // A failed decision is not kept: the next request decides again.
      decision.catch(() => this.decisions.delete(key));
      if (this.decisions.size > MAX_DECISIONS) this.decisions.delete(this.decisions.keys().next().value!);
    }
    return decision;
  }

  async select(mcp: readonly McpToolDescriptor[], settings: ToolSearchSettings, history: readonly ResponseItem[]): Promise<DeferredSelection> {
    const decision = await this.decide(mcp, settings);
    if (!decision.on) return { offered: [...mcp], searchTool: null, decision };
    const pinned = new Set(settings.alwaysLoaded);
    const found = new Set(toolsFoundIn(history));
    const offered = mcp.filter((d) => pinned.has(d.server) || found.has(d.name));
    const deferred = mcp.filter((d) => !pinned.has(d.server)).map(toDoc);
    const searchTool = deferred.length > 0 ? createToolSearchTool(deferred, () => this.cache.index(deferred)) : null;
    return { offered, searchTool, decision };
  }
}
