// The tools offered for one model request: the built-in tools, then the MCP catalog (or, with tool
// search on, the part of it the thread has loaded and the tool_search tool) and the MCP resource
// tools. Built-in names win; an MCP tool that collides with one is left out with a warning. A turn
// made for a caller sees the MCP catalog as that caller (its own connections), never the operator's.
import { errorMessage, nullLogger, type Logger } from '../../util/index.js';
import type { McpCaller, McpToolSource } from '../mcp-tool-source.js';
import type { ResponseItem, ToolSpec } from '../model/model-types.js';
import { DeferredTools, type ToolSearchSettings } from './deferred-tools.js';
import { createMcpResourceTools } from './mcp-resource-tools.js';
import { createMcpTool, type ElicitationHandler } from './mcp-tools.js';
import type { Tool } from './tool.js';

export interface TurnTools {
  /** What the model is offered in this request. */
  specs: ToolSpec[];
  /** Every tool the model may call: the offered ones, and with tool search on, every deferred MCP tool by its exact name. */
  get(name: string): Tool | undefined;
  /** Problems found while assembling the set (shown to the user as warnings). */
  warnings: string[];
}

/** What a request needs to decide whether MCP tools are deferred: the thread's settings and conversation. */
export interface ToolSearchContext {
  settings: ToolSearchSettings;
  history: readonly ResponseItem[];
}

export class ToolRegistry {
  private readonly logger: Logger;
  private readonly deferred = new DeferredTools();

  constructor(
    private readonly builtIn: readonly Tool[],
    private readonly mcp: McpToolSource | null,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
  }

  /** `caller`: whom the turn's MCP requests are made for (absent: the operator). */
  async forRequest(options: { signal: AbortSignal; elicit: ElicitationHandler | null; toolSearch?: ToolSearchContext; caller?: McpCaller }): Promise<TurnTools> {
    const byName = new Map<string, Tool>();
    /** Deferred MCP tools: not offered, but callable by exact name (a model that knows one need not search). */
    const callable = new Map<string, Tool>();
    const warnings: string[] = [];
    for (const tool of this.builtIn) byName.set(tool.name, tool);
    const mcp = this.mcpFor(options.caller, warnings);
    if (mcp && mcp.serverNames().length > 0) {
      const extra: Tool[] = [...createMcpResourceTools(mcp)];
      try {
        const all = await mcp.listTools({ signal: options.signal });
        const selection = options.toolSearch ? await this.deferred.select(all, options.toolSearch.settings, options.toolSearch.history) : null;
        const offered = new Set((selection?.offered ?? all).map((d) => d.name));
        for (const d of all) {
          const tool = createMcpTool(mcp, d, options.elicit);
          if (offered.has(d.name)) extra.push(tool);
          else if (!this.builtIn.some((b) => b.name === d.name)) callable.set(d.name, tool);
        }
        if (selection?.searchTool) extra.push(selection.searchTool);
      } catch (err) {
        if (options.signal.aborted) throw err;
        warnings.push(`MCP tools are unavailable for this request: ${errorMessage(err)}`);
        this.logger.warn('listing MCP tools failed', { error: errorMessage(err) });
      }
      for (const tool of extra) {
        if (byName.has(tool.name)) {
          warnings.push(`MCP tool ${tool.name} is hidden: a built-in tool has the same name`);
          continue;
        }
        byName.set(tool.name, tool);
      }
    }
    return {
      specs: [...byName.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
      get: (name) => byName.get(name) ?? callable.get(name) ?? this.unlisted(mcp, name, options.elicit),
      warnings,
    };
  }

  /** The MCP catalog as the turn's caller sees it; a source that cannot act for callers offers a caller nothing. */
  private mcpFor(caller: McpCaller | undefined, warnings: string[]): McpToolSource | null {
    if (!this.mcp || !caller) return this.mcp;
    if (this.mcp.actingFor) return this.mcp.actingFor(caller);
    warnings.push('MCP tools are unavailable to this caller: the MCP tool source cannot act for callers');
    return null;
  }

  /** A tool of a server acting as each caller that the caller has not reached yet: calling it asks the caller to sign in. */
  private unlisted(mcp: McpToolSource | null, name: string, elicit: ElicitationHandler | null): Tool | undefined {
    const descriptor = mcp?.unlisted?.(name);
    return descriptor && !this.builtIn.some((b) => b.name === name) ? createMcpTool(mcp!, descriptor, elicit) : undefined;
  }
}
