// The connection manager seen through the McpToolSource seam: the catalog for the next model request
// (never blocking on servers that have a snapshot), routed calls, and the resource tools' needs.
import type { McpConnectionManager } from '../mcp/index.js';
import type { McpCallToolResult, McpPage, McpResource, McpResourceTemplate, McpToolDescriptor, McpToolSource } from './mcp-tool-source.js';

/** A connection manager as the agent's MCP tool source (for `ThreadManagerDeps.mcp`). */
export function mcpToolSourceFrom(manager: McpConnectionManager): McpToolSource {
  return {
    serverNames: () => manager.serverNames(),
    async listTools({ signal }): Promise<McpToolDescriptor[]> {
      const entries = await manager.listAllTools({ wait: 'unsnapshotted', signal });
      return entries.map((e) => ({
        name: e.name,
        server: e.server,
        tool: e.tool,
        ...(e.definition.title ? { title: e.definition.title } : {}),
        description: e.definition.description ?? '',
        inputSchema: e.definition.inputSchema as Record<string, unknown>,
      }));
    },
    async callTool(name, args, options): Promise<McpCallToolResult> {
      const result = await manager.callTool(name, args, {
        signal: options.signal,
        onProgress: options.onProgress,
        onElicitation: options.onElicitation
          ? async (e) => options.onElicitation!({ server: e.server, id: e.id, request: e.request })
          : undefined,
      });
      return result as McpCallToolResult;
    },
    async listResources(server, _cursor, { signal }): Promise<McpPage<McpResource>> {
      return { items: (await manager.listResources(server, { signal })) as McpResource[] };
    },
    async listAllResources({ signal }) {
      return (await manager.listAllResources({ signal })) as Map<string, McpResource[]>;
    },
    async listResourceTemplates(server, _cursor, { signal }): Promise<McpPage<McpResourceTemplate>> {
      return { items: (await manager.listResourceTemplates(server, { signal })) as McpResourceTemplate[] };
    },
    async listAllResourceTemplates({ signal }) {
      return (await manager.listAllResourceTemplates({ signal })) as Map<string, McpResourceTemplate[]>;
    },
    async readResource(server, uri, { signal }) {
      return (await manager.readResource(server, uri, { signal })) as unknown as Record<string, unknown>;
    },
  };
}
