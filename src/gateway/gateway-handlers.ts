// The MCP methods the gateway answers, each routed to the server that owns the tool, prompt or
// resource (transparent mode: the one upstream, under raw names). Upstream traffic during a request
// is tied to it through the relay.
import { CLIENT_CAPABILITIES_META_KEY, type CallToolRequest, type CallToolResult, type CompleteRequest, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import { isSwitchboardError } from '../util/index.js';
import { mayUse, viewOf, visiblePrompts, visibleResources, visibleTools } from './caller-view.js';
import { invalidParams, resourceNotFound, toolCallFailure, toProtocolError } from './gateway-errors.js';
import { MODERN_PROTOCOL_VERSION, traceParentOf, type GatewayClient } from './gateway-client.js';
import type { RelayClient } from './relay.js';
import { callAsTask } from './task-handlers.js';
import { callAsModernTask } from './modern-task-handlers.js';

/**
 * The client's request `_meta` minus its progressToken (the upstream call gets its own). A
 * 2026-07-28 upstream also gets the calling 2026-07-28 client's own capabilities for what it may be
 * asked (its input requests then ask only what that client can answer), instead of the gateway's.
 */
function forwardedMeta(ctx: ServerContext, session: GatewayClient, client: RelayClient, server: string): Record<string, unknown> | undefined {
  const { progressToken: _token, ...rest } = ctx.mcpReq._meta ?? {};
  const caps = client.askableCapabilities?.();
  if (caps && session.upstreams().manager.status().find((s) => s.name === server)?.protocol === MODERN_PROTOCOL_VERSION) rest[CLIENT_CAPABILITIES_META_KEY] = caps;
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
 * A tools/call by the name the client sees, routed to the server that owns the tool (also `call_tool`'s
 * route under --tool-search). `client` is who the relay asks for input; `taskRequest`: the client asked
 * for a task (passed through when the upstream offers tasks).
 */
export async function callGatewayTool(
  session: GatewayClient,
  client: RelayClient,
  name: string,
  args: Record<string, unknown> | undefined,
  ctx: ServerContext,
  taskRequest?: CallToolRequest,
): Promise<CallToolResult> {
  const signal = ctx.mcpReq.signal;
  const up = session.upstreams();
  const view = viewOf(session.pool.options.access, ctx);
  const route = await up.catalog.resolveTool(name, signal);
  // Outside the caller's view: the same answer as a name no server offers, and no hints.
  if (!view.unrestricted && !mayUse(view, route)) throw invalidParams(`Unknown tool: ${name}`);
  if (!route) {
    // A server that is down: say so, rather than point the model at another server's tool.
    const down = up.catalog.unavailableServer(name);
    if (down) throw invalidParams(`Unknown tool: ${name}: MCP server '${down.server}' is unavailable: ${down.error}`);
    const close = up.catalog.closestTools(name);
    throw invalidParams(`Unknown tool: ${name}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`);
  }
  const plain = () =>
    up.relay.within(route.server, client, ctx, async (call) => {
      try {
        return await up.manager.callServerTool(route.server, route.name, args, {
          signal,
          access: view,
          onProgress: (p) => call.progress(p),
          meta: forwardedMeta(ctx, session, client, route.server),
          inputs: up.relay.inputsFor(call),
          traceParent: traceParentOf(session, ctx),
        });
      } catch (err) {
        return toolCallFailure(err);
      }
    });
  if (!taskRequest) return plain();
  return session.era === 'modern' ? callAsModernTask(session, client, route, taskRequest, ctx, plain, view) : callAsTask(session, route, taskRequest, ctx, plain, view);
}

export function registerGatewayHandlers(session: GatewayClient): void {
  const server = session.server;
  const access = session.pool.options.access;

  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const tools = visibleTools(viewOf(access, ctx), session.upstreams(), session.mode, await session.catalog.listTools(ctx.mcpReq.signal));
    return { tools: session.era === 'modern' ? sortedTools(tools, session.mode.kind === 'aggregate') : tools };
  });

  server.setRequestHandler('tools/call', (request, outer) =>
    // A 2025 client asks for a task with params.task; for a 2026-07-28 client the tool decides (tasks extension).
    session.rounds(outer, request.params.name, (ctx, client) => callGatewayTool(session, client, request.params.name, request.params.arguments, ctx, request.params.task || session.era === 'modern' ? request : undefined)),
  );

  server.setRequestHandler('resources/list', async (_request, ctx) => ({
    resources: visibleResources(viewOf(access, ctx), session.mode, await session.upstreams().routes.listResources(ctx.mcpReq.signal)),
  }));

  server.setRequestHandler('resources/templates/list', async (_request, ctx) => ({
    resourceTemplates: visibleResources(viewOf(access, ctx), session.mode, await session.upstreams().routes.listTemplates(ctx.mcpReq.signal)),
  }));

  server.setRequestHandler('resources/read', (request, outer) => session.rounds(outer, request.params.uri, async (ctx, client) => {
    const { uri } = request.params;
    const signal = ctx.mcpReq.signal;
    const up = session.upstreams();
    const target = await relayed(() => up.routes.route(uri, signal));
    if (target === undefined) throw resourceNotFound(uri);
    const view = viewOf(access, ctx);
    return up.relay.within(target, client, ctx, (call) =>
      relayed(() => up.manager.readResource(target, uri, { signal, access: view, inputs: up.relay.inputsFor(call), traceParent: traceParentOf(session, ctx) }), uri),
    );
  }));

  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const { uri } = request.params;
    const signal = ctx.mcpReq.signal;
    const up = session.upstreams();
    const target = await relayed(() => up.routes.route(uri, signal));
    if (target === undefined) throw resourceNotFound(uri);
    await relayed(() => session.pool.subscribe(session, uri, target, signal, viewOf(access, ctx)), uri);
    return {};
  });

  // Only this client's subscription ends; the upstream's ends with its last subscriber.
  server.setRequestHandler('resources/unsubscribe', async (request, ctx) => {
    await relayed(() => session.pool.unsubscribe(session, request.params.uri, ctx.mcpReq.signal));
    return {};
  });

  server.setRequestHandler('prompts/list', async (_request, ctx) => {
    const up = session.upstreams();
    return { prompts: visiblePrompts(viewOf(access, ctx), up, await up.catalog.listPrompts(ctx.mcpReq.signal)) };
  });

  server.setRequestHandler('prompts/get', (request, outer) => session.rounds(outer, request.params.name, async (ctx, client) => {
    const signal = ctx.mcpReq.signal;
    const up = session.upstreams();
    const route = await relayed(() => up.catalog.resolvePrompt(request.params.name, signal));
    const view = viewOf(access, ctx);
    const unknown = () => invalidParams(`Unknown prompt: ${request.params.name}`);
    if (!mayUse(view, route)) throw unknown();
    return up.relay.within(route.server, client, ctx, (call) =>
      relayed(() => up.manager.getPrompt(route.server, route.name, request.params.arguments, { signal, access: view, inputs: up.relay.inputsFor(call), traceParent: traceParentOf(session, ctx) }), undefined, unknown),
    );
  }));

  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const signal = ctx.mcpReq.signal;
    const up = session.upstreams();
    const view = viewOf(access, ctx);
    const { ref } = request.params;
    let target: string | undefined;
    let params: CompleteRequest['params'] = request.params;
    if (ref.type === 'ref/prompt') {
      const route = await relayed(() => up.catalog.resolvePrompt(ref.name, signal));
      if (!mayUse(view, route)) throw invalidParams(`Unknown prompt: ${ref.name}`);
      target = route.server;
      params = { ...request.params, ref: { ...ref, name: route.name } };
    } else {
      target = await relayed(() => up.routes.route(ref.uri, signal));
    }
    const notFound = () => invalidParams(ref.type === 'ref/prompt' ? `Unknown prompt: ${ref.name}` : `Resource template ${ref.uri} not found: no MCP server behind this gateway offers it`);
    if (target === undefined) throw notFound();
    const owner = target;
    // The gateway offers completion for every prompt and template; servers without it have none.
    return up.relay.within(owner, session, ctx, () =>
      relayed(() => up.manager.complete(owner, params, { signal, access: view, traceParent: traceParentOf(session, ctx) }), undefined, notFound),
    );
  });

  // The client's roots changed: servers asking it for roots are told to ask again.
  server.setNotificationHandler('notifications/roots/list_changed', () => session.upstreams().manager.notifyRootsChanged());

  server.setRequestHandler('logging/setLevel', async (request, ctx) => {
    const { level } = request.params;
    session.setLoggingLevel(level);
    await session.pool.applyLevel(ctx.mcpReq.signal);
    return {};
  });
}
