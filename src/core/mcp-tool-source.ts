// The seam between the turn loop and the MCP connection manager: what the agent needs from "all MCP
// servers as one catalog". The manager (src/mcp) implements it; core never reaches into MCP clients.
import type { UpstreamCaller } from '../mcp/index.js';
import type { JsonSchema } from './tools/tool.js';

/**
 * Whom a turn's MCP requests are made for: a served caller (`mcp-server --http` with [server_auth]),
 * whose own credential reaches the servers that act as each caller (identity = "caller"). A turn
 * without one is the operator's (the CLI, stdio, the static token).
 */
export type McpCaller = UpstreamCaller;

/** One tool of the aggregated catalog, under its model-visible name. */
export interface McpToolDescriptor {
  /** Model-visible, collision-free name (`mcp__<server>__<tool>`); the routing key for callTool. */
  name: string;
  server: string;
  /** The tool's raw name on its server. */
  tool: string;
  /** The server's display title for the tool, when it gives one (tool search indexes it). */
  title?: string;
  description: string;
  inputSchema: JsonSchema;
}

/** An MCP content block (text, image, audio, resource, resource_link), as the SDK returns it. */
export type McpContentBlock = { type: string } & Record<string, unknown>;

/** The MCP CallToolResult shape (the SDK's type is assignable to it). */
export interface McpCallToolResult {
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown> | null;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

export type McpResource = Record<string, unknown> & { uri: string; name?: string };
export type McpResourceTemplate = Record<string, unknown> & { uriTemplate: string; name?: string };

export interface McpPage<T> {
  items: T[];
  nextCursor?: string;
}

/** An elicitation a server sent during a tool call, and the answer the user gave. */
export interface McpElicitation {
  server: string;
  /** The JSON-RPC id of the server's request. */
  id: string | number;
  /** The `elicitation/create` params as the server sent them. */
  request: Record<string, unknown>;
}

export interface McpElicitationResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

export interface McpCallOptions {
  signal: AbortSignal;
  onProgress?: (progress: McpProgress) => void;
  /** Answers elicitations raised while this call runs; without it the manager declines them. */
  onElicitation?: (elicitation: McpElicitation) => Promise<McpElicitationResult>;
}

/** The MCP catalog as the agent sees it; `mcpToolSourceFrom(manager)` makes one from a connection manager. */
export interface McpToolSource {
  /** Configured (enabled) servers; the resource tools are offered when there is at least one. */
  serverNames(): string[];
  /** The model-visible catalog for the next model request (must not block on slow servers). */
  listTools(options: { signal: AbortSignal }): Promise<McpToolDescriptor[]>;
  /** Call by model-visible name. Protocol and transport failures reject; tool errors are `isError` results. */
  callTool(name: string, args: Record<string, unknown> | undefined, options: McpCallOptions): Promise<McpCallToolResult>;
  listResources(server: string, cursor: string | undefined, options: { signal: AbortSignal }): Promise<McpPage<McpResource>>;
  /** Every server's resources (all pages); failed servers are left out. */
  listAllResources(options: { signal: AbortSignal }): Promise<Map<string, McpResource[]>>;
  listResourceTemplates(server: string, cursor: string | undefined, options: { signal: AbortSignal }): Promise<McpPage<McpResourceTemplate>>;
  listAllResourceTemplates(options: { signal: AbortSignal }): Promise<Map<string, McpResourceTemplate[]>>;
  /** The ReadResourceResult (`{contents: [...]}`). */
  readResource(server: string, uri: string, options: { signal: AbortSignal }): Promise<Record<string, unknown>>;
  /**
   * The same catalog with every request made for `caller`: its own catalog and connections for the
   * servers that act as each caller, never the operator's or another caller's. A source without it
   * cannot act for callers: a turn that has one gets no MCP tools from it.
   */
  actingFor?(caller: McpCaller): McpToolSource;
  /**
   * A name the catalog does not list that a call may still reach: a tool of a server that acts as
   * each caller, which this source's caller has not reached yet (calling it asks the caller to sign in).
   */
  unlisted?(name: string): McpToolDescriptor | undefined;
}
