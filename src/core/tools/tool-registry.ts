// The tools offered for one model request: the built-in tools, then the MCP catalog and the MCP
// resource tools. Built-in names win; an MCP tool that collides with one is left out with a warning.
import { errorMessage, nullLogger, type Logger } from '../../util/index.js';
import type { McpToolSource } from '../mcp-tool-source.js';
import type { ToolSpec } from '../model/model-types.js';
import { createMcpResourceTools } from './mcp-resource-tools.js';
import { createMcpTool, type ElicitationHandler } from './mcp-tools.js';
import type { Tool } from './tool.js';

export interface TurnTools {
  specs: ToolSpec[];
  get(name: string): Tool | undefined;
  /** Problems found while assembling the set (shown to the user as warnings). */
  warnings: string[];
}

export class ToolRegistry {
  private readonly logger: Logger;

  constructor(
    private readonly builtIn: readonly Tool[],
    private readonly mcp: McpToolSource | null,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
  }

  async forRequest(options: { signal: AbortSignal; elicit: ElicitationHandler | null }): Promise<TurnTools> {
    const byName = new Map<string, Tool>();
    const warnings: string[] = [];
    for (const tool of this.builtIn) byName.set(tool.name, tool);
    if (this.mcp && this.mcp.serverNames().length > 0) {
      const mcp = this.mcp;
      const extra: Tool[] = [...createMcpResourceTools(mcp)];
      try {
        for (const d of await mcp.listTools({ signal: options.signal })) extra.push(createMcpTool(mcp, d, options.elicit));
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
      get: (name) => byName.get(name),
      warnings,
    };
  }
}
