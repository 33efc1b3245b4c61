// `switchboard serve --tool-search`: for clients that cannot defer tools themselves, tools/list
// offers `search_tools` and `call_tool` (plus the tools of always_loaded servers) instead of the
// whole catalog. search_tools ranks the catalog with the shared tool-search index (kept current as
// servers come, go and send list_changed); call_tool checks the caller's view, then the arguments
// against the real tool's schema, then routes the call as tools/call does. Served in place of the
// gateway's own tools/list and tools/call.
import type { CallToolRequestParams, CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Config } from '../config/index.js';
import { describeServers, ToolSearchCache, DEFAULT_SEARCH_LIMIT, type ToolSearchDoc } from '../mcp/index.js';
import { SwitchboardError } from '../util/index.js';
import type { Handler, Req } from '../mcp-host/index.js';
import { invalidParams } from './gateway-errors.js';
import { mayUse, visibleTools } from './caller-view.js';
import { callGatewayTool } from './gateway-handlers.js';
import type { GatewayMode } from './catalog-view.js';
import type { Downstream } from './downstream.js';
import type { GatewayPool } from './gateway-pool.js';

/** `--tool-search`: which servers' tools are still listed directly (a configuration reload replaces the list). */
export interface GatewayToolSearch {
  alwaysLoaded: readonly string[];
}

/** Tool search over `config`'s servers (those marked `always_loaded` stay listed); refused in transparent mode. */
export function gatewayToolSearchFor(config: Config, mode: GatewayMode): GatewayToolSearch {
  refuseTransparent(mode);
  return { alwaysLoaded: Object.values(config.mcp_servers).filter((s) => s.enabled && s.always_loaded).map((s) => s.name) };
}

export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';
const MAX_LIMIT = 50;

type Validate = (value: unknown) => { valid: boolean; errorMessage?: string };

function searchToolsDefinition(deferred: readonly ToolSearchDoc[]): Tool {
  return {
    name: SEARCH_TOOLS,
    title: 'Search tools',
    description: [
      'Search the tools of the MCP servers below by what they do or by exact name. Returns each matching',
      'tool\'s name, description and inputSchema, best first. Call a tool you found with call_tool.',
      'Servers:',
      describeServers(deferred),
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, or its exact name' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT})` },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

const CALL_TOOL_DEFINITION: Tool = {
  name: CALL_TOOL,
  title: 'Call a tool',
  description: 'Call a tool that search_tools returned, by its name, with arguments matching its inputSchema.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The tool\'s name, as search_tools returned it' },
      arguments: { type: 'object', description: 'The tool\'s arguments', additionalProperties: true },
    },
    required: ['name'],
  },
};

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function refuseTransparent(mode: GatewayMode): void {
  if (mode.kind === 'transparent') {
    throw new SwitchboardError('gateway_tool_search', 'tool search needs the aggregating gateway; it cannot be combined with transparent mode');
  }
}

/** What a tools/call runs as a task: the call itself, another (call_tool's target), an answer at once (call_tool refusing its arguments), or nothing to hold (search_tools: it answers at once). */
export type TaskCall = { params: CallToolRequestParams } | { result: CallToolResult } | { atOnce: true };

export interface ToolSearch {
  /** tools/list and tools/call, in place of the gateway's own. */
  handlers: Record<string, Handler>;
  /** What a task-augmented tools/call of `params` runs: call_tool's target, after the same checks as an ordinary call_tool. */
  taskCall(params: CallToolRequestParams, req: Req): Promise<TaskCall>;
}

/**
 * tools/list and tools/call as --tool-search serves them: one index per pool (2026-07-28 clients get
 * a server per request, and the catalog is the pool's).
 */
export function toolSearch(pool: GatewayPool, downstream: Downstream, options: GatewayToolSearch): ToolSearch {
  refuseTransparent(pool.mode);
  let pinned = { of: options.alwaysLoaded, names: new Set(options.alwaysLoaded) };
  const index = new ToolSearchCache();
  const validators = new WeakMap<object, Validate>();
  let ajv: Promise<{ getValidator(schema: unknown): Validate }> | undefined;

  /** The caller's view of the catalog, split into the pinned servers' tools and the searchable rest. */
  async function catalog(req: Req): Promise<{ listed: Tool[]; deferred: ToolSearchDoc[] }> {
    const up = pool.upstreams();
    const { manager, catalog: view } = up;
    const listed: Tool[] = [];
    const deferred: ToolSearchDoc[] = [];
    const visible = visibleTools(req.view, up, pool.mode, await view.listTools(req.signal));
    if (pinned.of !== options.alwaysLoaded) pinned = { of: options.alwaysLoaded, names: new Set(options.alwaysLoaded) };
    for (const tool of visible) {
      const entry = manager.lookup(tool.name);
      if (!entry) continue;
      if (pinned.names.has(entry.server)) listed.push(tool);
      else deferred.push({ name: tool.name, server: entry.server, tool: entry.tool, title: tool.title, description: tool.description ?? '', inputSchema: tool.inputSchema as Record<string, unknown> });
    }
    return { listed, deferred };
  }

  async function validatorFor(schema: object): Promise<Validate> {
    let v = validators.get(schema);
    if (!v) {
      ajv ??= import('@modelcontextprotocol/server/validators/ajv').then((m) => new m.AjvJsonSchemaValidator() as unknown as { getValidator(schema: unknown): Validate });
      v = (await ajv).getValidator(schema);
      validators.set(schema, v);
    }
    return v;
  }

  async function search(args: Record<string, unknown> | undefined, req: Req): Promise<CallToolResult> {
    const query = args?.query;
    if (typeof query !== 'string' || query.trim() === '') return errorResult('search_tools needs a non-empty "query" string');
    const raw = args?.limit;
    const limit = typeof raw === 'number' && Number.isFinite(raw) ? Math.min(MAX_LIMIT, Math.max(1, Math.floor(raw))) : DEFAULT_SEARCH_LIMIT;
    const { deferred } = await catalog(req);
    const hits = (await index.index(deferred)).search(query, { limit });
    const tools = hits.map((h) => ({
      name: h.doc.name,
      server: h.doc.server,
      ...(h.doc.title ? { title: h.doc.title } : {}),
      description: h.doc.description,
      inputSchema: h.doc.inputSchema,
      score: Math.round(h.score * 1000) / 1000,
    }));
    const structured = { query, tools };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }

  /** call_tool's target and its arguments (checked against its schema), or the error result. */
  async function target(args: Record<string, unknown> | undefined, req: Req): Promise<{ name: string; arguments: Record<string, unknown> } | CallToolResult> {
    const name = args?.name;
    if (typeof name !== 'string' || name === '') throw invalidParams('call_tool needs the "name" of a tool that search_tools returned');
    const inner = args?.arguments ?? {};
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return errorResult(`call_tool "arguments" must be an object, got ${JSON.stringify(inner)}`);
    const { manager, catalog: view } = pool.upstreams();
    // The name as search_tools gave it, or a raw / qualified name that names exactly one tool.
    let found = manager.lookup(name) ?? (await view.resolveTool(name, req.signal), manager.lookup(name));
    if (!found) {
      const exact = (await index.index((await catalog(req)).deferred)).search(name, { limit: 2 }).filter((h) => h.match === 'exact');
      if (exact.length === 1) found = manager.lookup(exact[0]!.doc.name);
    }
    // Outside the caller's view: no schema check (its errors would describe the tool), the call refuses it as unknown.
    if (found && !mayUse(req.view, { server: found.server, name: found.tool })) found = undefined;
    if (found) {
      const check = await validatorFor(found.definition.inputSchema);
      const verdict = check(inner);
      if (!verdict.valid) return errorResult(`Invalid arguments for tool ${found.name}: ${verdict.errorMessage ?? 'they do not match its inputSchema'}`);
    }
    return { name: found?.name ?? name, arguments: inner as Record<string, unknown> };
  }

  async function call(args: Record<string, unknown> | undefined, req: Req): Promise<CallToolResult> {
    const t = await target(args, req);
    return 'content' in t ? t : callGatewayTool(pool, downstream.of(req), req, t.name, t.arguments);
  }

  return {
    handlers: {
      'tools/list': {
        handle: async (_params, req) => {
          const { listed, deferred } = await catalog(req);
          return { tools: [searchToolsDefinition(deferred), CALL_TOOL_DEFINITION, ...listed] };
        },
      },
      'tools/call': {
        asks: true,
        handle: (params, req) => {
          const { name, arguments: args } = params as { name: string; arguments?: Record<string, unknown> };
          if (name === SEARCH_TOOLS) return search(args, req);
          if (name === CALL_TOOL) return call(args, req);
          // The pinned servers' tools, and any tool called by its exact name.
          return callGatewayTool(pool, downstream.of(req), req, name, args);
        },
      },
    },
    async taskCall(params, req) {
      if (params.name === SEARCH_TOOLS) return { atOnce: true };
      if (params.name !== CALL_TOOL) return { params };
      const t = await target(params.arguments, req);
      return 'content' in t ? { result: t } : { params: { ...params, name: t.name, arguments: t.arguments } };
    },
  };
}
