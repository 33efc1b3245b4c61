// The three built-in function tools through which the model sees MCP resources (Codex's
// list_mcp_resources, list_mcp_resource_templates, read_mcp_resource), backed by the McpToolSource.
import { errorMessage } from '../../util/index.js';
import type { McpToolSource } from '../mcp-tool-source.js';
import { withMcpCallEvents } from './mcp-tools.js';
import type { Tool, ToolContext, ToolResult } from './tool.js';

/** Server name in begin/end events when the model named none (Codex's). */
const AGGREGATE_SERVER = 'codex';

const serverCursorParams = {
  type: 'object',
  properties: {
    server: { type: 'string', description: 'Optional MCP server name. When omitted, lists entries from every configured server.' },
    cursor: { type: 'string', description: 'Opaque cursor returned as nextCursor by a previous call for the same server.' },
  },
  additionalProperties: false,
};

class ArgError extends Error {}

function parseArgs(args: unknown, required: string[]): Record<string, string | undefined> {
  const obj = args === undefined ? {} : args;
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new ArgError(`arguments must be a JSON object, got ${JSON.stringify(args)}`);
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v !== undefined && v !== null && typeof v !== 'string') throw new ArgError(`${k} must be a string`);
    out[k] = (v ?? undefined) as string | undefined;
  }
  for (const k of required) if (!out[k]) throw new ArgError(`missing required argument ${k}`);
  return out;
}

async function runResourceTool(
  ctx: ToolContext,
  toolName: string,
  args: unknown,
  required: string[],
  failurePrefix: string,
  body: (a: Record<string, string | undefined>) => Promise<unknown>,
): Promise<ToolResult> {
  let parsed: Record<string, string | undefined>;
  try {
    parsed = parseArgs(args, required);
  } catch (err) {
    return { output: `failed to parse function arguments: ${errorMessage(err)}`, success: false };
  }
  if (parsed.cursor !== undefined && parsed.server === undefined) {
    return { output: 'cursor can only be used when a server is specified', success: false };
  }
  const invocation = { server: parsed.server ?? AGGREGATE_SERVER, tool: toolName, arguments: args };
  return withMcpCallEvents(ctx, invocation, async () => {
    let value: unknown;
    try {
      value = await body(parsed);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw new Error(`${failurePrefix}: ${errorMessage(err)}`, { cause: err });
    }
    const text = JSON.stringify(value);
    return { result: { content: [{ type: 'text', text }] }, forModel: { output: text, success: true } };
  });
}

function byServer<T extends Record<string, unknown>>(all: Map<string, T[]>): (T & { server: string })[] {
  return [...all.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([server, list]) => list.map((r) => ({ server, ...r })));
}

export function createMcpResourceTools(source: McpToolSource): Tool[] {
  return [
    {
      name: 'list_mcp_resources',
      description:
        'Lists resources provided by MCP servers. Resources allow servers to share data that provides context to language models, such as files, database schemas, or application-specific information. Prefer resources over web search when possible.',
      parameters: serverCursorParams,
      run: (args, ctx) =>
        runResourceTool(ctx, 'list_mcp_resources', args, [], 'resources/list failed', async ({ server, cursor }) => {
          if (server === undefined) return { resources: byServer(await source.listAllResources({ signal: ctx.signal })) };
          const page = await source.listResources(server, cursor, { signal: ctx.signal });
          return { server, resources: page.items.map((r) => ({ server, ...r })), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
        }),
    },
    {
      name: 'list_mcp_resource_templates',
      description:
        'Lists resource templates provided by MCP servers. Templates describe parameterized resource URIs that can be filled in and read with read_mcp_resource.',
      parameters: serverCursorParams,
      run: (args, ctx) =>
        runResourceTool(ctx, 'list_mcp_resource_templates', args, [], 'resources/templates/list failed', async ({ server, cursor }) => {
          if (server === undefined) return { resourceTemplates: byServer(await source.listAllResourceTemplates({ signal: ctx.signal })) };
          const page = await source.listResourceTemplates(server, cursor, { signal: ctx.signal });
          return { server, resourceTemplates: page.items.map((r) => ({ server, ...r })), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
        }),
    },
    {
      name: 'read_mcp_resource',
      description: 'Read a specific resource from an MCP server given the server name and resource URI.',
      parameters: {
        type: 'object',
        properties: {
          server: { type: 'string', description: 'MCP server name exactly as configured; it must match the server field of list_mcp_resources.' },
          uri: { type: 'string', description: 'Resource URI to read; must be one of the URIs returned by list_mcp_resources.' },
        },
        required: ['server', 'uri'],
        additionalProperties: false,
      },
      run: (args, ctx) =>
        runResourceTool(ctx, 'read_mcp_resource', args, ['server', 'uri'], 'resources/read failed', async ({ server, uri }) => ({
          server,
          uri,
          ...(await source.readResource(server!, uri!, { signal: ctx.signal })),
        })),
    },
  ];
}
