// The connection manager seen through the McpToolSource seam: the catalog for the next model request
// (never blocking on servers that have a snapshot), routed calls, and the resource tools' needs; acting
// for a caller, every request carries it, and a server that needs the caller's own sign-in asks for it
// through the call's elicitation (a URL) or fails with the link.
import { withUpstreamSignIn, type McpConnectionManager } from '../mcp/index.js';
import type { McpCaller, McpCallOptions, McpElicitation, McpCallToolResult, McpPage, McpResource, McpResourceTemplate, McpToolDescriptor, McpToolSource } from './mcp-tool-source.js';

/** A connection manager as the agent's MCP tool source (for `ThreadManagerDeps.mcp`); `caller`: every request made for that caller. */
export function mcpToolSourceFrom(manager: McpConnectionManager, caller?: McpCaller): McpToolSource {
  const reach = caller ? { caller } : {};
  return {
    serverNames: () => manager.serverNames(),
    async listTools({ signal }): Promise<McpToolDescriptor[]> {
      const entries = await manager.listAllTools({ wait: 'unsnapshotted', signal, ...reach });
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
      const calls = {
        signal: options.signal,
        onProgress: options.onProgress,
        onElicitation: options.onElicitation ? async (e: McpElicitation) => options.onElicitation!({ server: e.server, id: e.id, request: e.request }) : undefined,
        ...reach,
      };
      if (!caller) return (await manager.callTool(name, args, calls)) as McpCallToolResult;
      const listed = manager.lookup(name, caller);
      const unreached = listed ? undefined : manager.unreachedCallerTool(name, caller);
      const work = () => (unreached ? manager.callServerTool(unreached.server, unreached.tool, args, calls) : manager.callTool(name, args, calls));
      const server = listed?.server ?? unreached?.server;
      if (server === undefined) return (await work()) as McpCallToolResult;
      return (await withUpstreamSignIn(manager, server, caller, { signal: options.signal, ask: askThrough(server, options), linkOnRefusal: true }, work)) as McpCallToolResult;
    },
    async listResources(server, _cursor, { signal }): Promise<McpPage<McpResource>> {
      return { items: (await manager.listResources(server, { signal, ...reach })) as McpResource[] };
    },
    async listAllResources({ signal }) {
      return (await manager.listAllResources({ signal, ...reach })) as Map<string, McpResource[]>;
    },
    async listResourceTemplates(server, _cursor, { signal }): Promise<McpPage<McpResourceTemplate>> {
      return { items: (await manager.listResourceTemplates(server, { signal, ...reach })) as McpResourceTemplate[] };
    },
    async listAllResourceTemplates({ signal }) {
      return (await manager.listAllResourceTemplates({ signal, ...reach })) as Map<string, McpResourceTemplate[]>;
    },
    async readResource(server, uri, { signal }) {
      return (await manager.readResource(server, uri, { signal, ...reach })) as unknown as Record<string, unknown>;
    },
    actingFor: (next) => mcpToolSourceFrom(manager, next),
    unlisted(name) {
      const route = caller ? manager.unreachedCallerTool(name, caller) : undefined;
      return route && { name, server: route.server, tool: route.tool, description: '', inputSchema: { type: 'object' } };
    },
  };
}

/** The sign-in link as a URL-mode elicitation of the call (the thread asks its user); a call that cannot ask gets the link in its error. */
function askThrough(server: string, options: McpCallOptions) {
  return async (link: { url: string; id: string }, message: string) => {
    if (!options.onElicitation) return 'unable' as const;
    const answer = await options.onElicitation({ server, id: `sign-in:${link.id}`, request: { mode: 'url', message, url: link.url, elicitationId: link.id } });
    return answer.action;
  };
}
