// The MCP methods the gateway answers, as a handler table the host serves in both revisions: each
// routed to the server that owns the tool, prompt or resource (transparent mode: the one upstream,
// under raw names), within the caller's view, through a manager operation. Upstream traffic during a
// request is tied to it through the relay.
import { CLIENT_CAPABILITIES_META_KEY, type CallToolRequestParams, type CallToolResult, type CompleteRequest, type LoggingLevel, type Tool } from '@modelcontextprotocol/server';
import type { Handler, Req } from '../mcp-host/index.js';
import { MODERN_REVISION } from '../protocol/values.js';
import { isSwitchboardError } from '../util/index.js';
import { mayUse, visiblePrompts, visibleResources, visibleTools } from './caller-view.js';
import type { Route } from './catalog-view.js';
import type { Downstream } from './downstream.js';
import { invalidParams, resourceNotFound, toolCallFailure, toProtocolError } from './gateway-errors.js';
import type { GatewayPool } from './gateway-pool.js';
import type { RelayClient } from './relay.js';
import { upstreamCaller, withUpstreamSignIn } from './upstream-identity.js';


/**
 * The client's request `_meta` minus its progressToken (the upstream call gets its own). A
 * 2026-07-28 upstream also gets the calling 2026-07-28 client's own capabilities for what it may be
 * asked (its input requests then ask only what that client can answer), instead of the gateway's.
 */
function forwardedMeta(pool: GatewayPool, req: Req, server: string): Record<string, unknown> | undefined {
  const { progressToken: _token, ...rest } = req.meta ?? {};
  if (req.era === 'modern' && pool.upstreams().manager.status().find((s) => s.name === server)?.protocol === MODERN_REVISION) {
    const { elicitation, sampling, roots } = req.clientCapabilities ?? {};
    rest[CLIENT_CAPABILITIES_META_KEY] = { ...(elicitation ? { elicitation } : {}), ...(sampling ? { sampling } : {}), ...(roots ? { roots } : {}) };
  }
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * Upstream failures as the upstream's own JSON-RPC error, or an internal error with the reason. What
 * the manager answers as unknown (outside the caller's rights, or absent) is the gateway's not-found
 * for `uri`, or `notFound()`.
 */
async function relayed<T>(work: () => Promise<T>, uri?: string, notFound?: () => Error): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isSwitchboardError(err, 'unknown_resource') && uri !== undefined) throw resourceNotFound(uri);
    if (notFound && (isSwitchboardError(err, 'unknown_resource') || isSwitchboardError(err, 'unknown_prompt'))) throw notFound();
    throw toProtocolError(err);
  }
}

/** Aggregated tools by name; a transparent gateway keeps its one server's own order. */
function sortedTools(tools: Tool[], aggregate: boolean): Tool[] {
  return aggregate ? [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : tools;
}

/**
 * Where a tools/call by the name the client sees goes; a name outside the caller's view gets the same
 * answer as one no server offers, with no hints (-32602 either way).
 */
export async function resolveCall(pool: GatewayPool, req: Req, name: string): Promise<Route> {
  const up = pool.upstreams();
  const route = await up.catalog.resolveTool(name, req.signal, upstreamCaller(req.caller));
  if (!req.view.unrestricted && !mayUse(req.view, route)) throw invalidParams(`Unknown tool: ${name}`);
  if (route) return route;
  // A server that is down: say so, rather than point the model at another server's tool.
  const down = up.catalog.unavailableServer(name);
  if (down) throw invalidParams(`Unknown tool: ${name}: MCP server '${down.server}' is unavailable: ${down.error}`);
  const close = up.catalog.closestTools(name);
  throw invalidParams(`Unknown tool: ${name}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`);
}

/** Who a request reaches upstreams as and what it may reach there: its caller (for servers that act as each caller) and its view. */
export function reach(req: Req): { access: Req['view']; caller?: ReturnType<typeof upstreamCaller> } {
  const caller = upstreamCaller(req.caller);
  return { access: req.view, ...(caller ? { caller } : {}) };
}

/** A tools/call by the name the client sees (also `call_tool`'s route under --tool-search), run as an ordinary call. */
export async function callGatewayTool(pool: GatewayPool, client: RelayClient, req: Req, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const route = await resolveCall(pool, req, name);
  const { manager, relay } = pool.upstreams();
  return relay.within(route.server, client, req, async (call) => {
    try {
      return await withUpstreamSignIn(manager, req, route.server, () =>
        manager.callServerTool(route.server, route.name, args, {
          signal: req.signal,
          ...reach(req),
          onProgress: (p) => call.progress(p),
          meta: forwardedMeta(pool, req, route.server),
          inputs: relay.inputsFor(call),
          ...(req.traceContext ? { traceParent: req.traceContext } : {}),
        }),
      );
    } catch (err) {
      return toolCallFailure(err);
    }
  });
}

/** The gateway's handlers by method, for the host to serve. */
export function gatewayHandlers(pool: GatewayPool, downstream: Downstream): Record<string, Handler> {
  const up = () => pool.upstreams();
  const trace = (req: Req) => (req.traceContext ? { traceParent: req.traceContext } : {});
  return {
    'tools/list': {
      handle: async (_params, req) => {
        const caller = upstreamCaller(req.caller);
        const tools = visibleTools(req.view, up(), pool.mode, await up().catalog.listTools(req.signal, caller), caller);
        return { tools: req.era === 'modern' ? sortedTools(tools, pool.mode.kind === 'aggregate') : tools };
      },
    },
    'tools/call': {
      asks: true,
      handle: (params, req) => {
        const { name, arguments: args } = params as CallToolRequestParams;
        return callGatewayTool(pool, downstream.of(req), req, name, args);
      },
    },
    'resources/list': { handle: async (_params, req) => ({ resources: visibleResources(req.view, pool.mode, await up().routes.listResources(req.signal, upstreamCaller(req.caller))) }) },
    'resources/templates/list': { handle: async (_params, req) => ({ resourceTemplates: visibleResources(req.view, pool.mode, await up().routes.listTemplates(req.signal, upstreamCaller(req.caller))) }) },
    'resources/read': {
      asks: true,
      handle: async (params, req) => {
        const uri = String(params.uri);
        const target = await relayed(() => up().routes.route(uri, req.signal, upstreamCaller(req.caller)));
        if (target === undefined) throw resourceNotFound(uri);
        const { manager, relay } = up();
        return relay.within(target, downstream.of(req), req, (call) =>
          relayed(() => withUpstreamSignIn(manager, req, target, () => manager.readResource(target, uri, { signal: req.signal, ...reach(req), inputs: relay.inputsFor(call), ...trace(req) })), uri),
        );
      },
    },
    // A 2026-07-28 client subscribes through its listen stream (listen-subscriptions.ts).
    'resources/subscribe': {
      era: 'legacy',
      handle: async (params, req) => {
        const uri = String(params.uri);
        const target = await relayed(() => up().routes.route(uri, req.signal, upstreamCaller(req.caller)));
        if (target === undefined) throw resourceNotFound(uri);
        await relayed(() => pool.subscribe(downstream.session(req.session!), uri, target, req.signal, req.view, upstreamCaller(req.caller)), uri);
        return {};
      },
    },
    // Only this client's subscription ends; the upstream's ends with its last subscriber.
    'resources/unsubscribe': {
      era: 'legacy',
      handle: async (params, req) => {
        await relayed(() => pool.unsubscribe(downstream.session(req.session!), String(params.uri), req.signal));
        return {};
      },
    },
    'prompts/list': { handle: async (_params, req) => ({ prompts: visiblePrompts(req.view, up(), await up().catalog.listPrompts(req.signal, upstreamCaller(req.caller))) }) },
    'prompts/get': {
      asks: true,
      handle: async (params, req) => {
        const name = String(params.name);
        const route = await relayed(() => up().catalog.resolvePrompt(name, req.signal, upstreamCaller(req.caller)));
        const unknown = () => invalidParams(`Unknown prompt: ${name}`);
        if (!mayUse(req.view, route)) throw unknown();
        const { manager, relay } = up();
        const args = params.arguments as Record<string, string> | undefined;
        return relay.within(route.server, downstream.of(req), req, (call) =>
          relayed(() => withUpstreamSignIn(manager, req, route.server, () => manager.getPrompt(route.server, route.name, args, { signal: req.signal, ...reach(req), inputs: relay.inputsFor(call), ...trace(req) })), undefined, unknown),
        );
      },
    },
    'completion/complete': {
      handle: async (params, req) => {
        const request = params as CompleteRequest['params'];
        const { ref } = request;
        let target: string | undefined;
        let forwarded = request;
        if (ref.type === 'ref/prompt') {
          const route = await relayed(() => up().catalog.resolvePrompt(ref.name, req.signal, upstreamCaller(req.caller)));
          if (!mayUse(req.view, route)) throw invalidParams(`Unknown prompt: ${ref.name}`);
          target = route.server;
          forwarded = { ...request, ref: { ...ref, name: route.name } };
        } else {
          target = await relayed(() => up().routes.route(ref.uri, req.signal, upstreamCaller(req.caller)));
        }
        const notFound = () => invalidParams(ref.type === 'ref/prompt' ? `Unknown prompt: ${ref.name}` : `Resource template ${ref.uri} not found: no MCP server behind this gateway offers it`);
        if (target === undefined) throw notFound();
        const owner = target;
        // The gateway offers completion for every prompt and template; servers without it have none.
        return up().relay.within(owner, downstream.of(req), req, () => relayed(() => up().manager.complete(owner, forwarded, { signal: req.signal, ...reach(req), ...trace(req) }), undefined, notFound));
      },
    },
    // logging/setLevel is not a 2026-07-28 method: a request's level comes in its `_meta`.
    'logging/setLevel': {
      era: 'legacy',
      handle: async (params, req) => {
        downstream.session(req.session!).setLoggingLevel(params.level as LoggingLevel);
        await pool.applyLevel(req.signal);
        return {};
      },
    },
  };
}

