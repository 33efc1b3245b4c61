// What one caller of the gateway may see and use, by the [server_auth] rules over its token's
// claims (the host gives each request its caller's view): the lists filtered to its view, and every
// name outside it treated as one no server offers, so the view leaks nothing (no "did you mean",
// no "server unavailable" for it). And what the audit trail records as a request's tool and upstream.
import type { Prompt, Tool } from '@modelcontextprotocol/server';
import type { AuditDescriber, CallerView } from '../mcp-host/index.js';
import { canonicalUri } from '../mcp/index.js';
import type { GatewayMode, Route } from './catalog-view.js';
import type { UpstreamCaller } from '../mcp-client/index.js';
import { upstreamCaller } from './upstream-identity.js';
import { SERVER_META_KEY } from './resource-routes.js';
import type { GatewayPool } from './gateway-pool.js';
import type { Upstreams } from './upstreams.js';

export function mayUse(view: CallerView, route: Route | undefined): route is Route {
  return route !== undefined && (view.unrestricted || view.allows(route.server, route.name));
}

export function visibleTools(view: CallerView, up: Upstreams, mode: GatewayMode, tools: Tool[], caller?: UpstreamCaller): Tool[] {
  if (view.unrestricted) return tools;
  return tools.filter((t) => mayUse(view, toolRoute(up, mode, t.name, caller)));
}

export function visiblePrompts(view: CallerView, up: Upstreams, prompts: Prompt[]): Prompt[] {
  if (view.unrestricted) return prompts;
  return prompts.filter((p) => mayUse(view, up.catalog.promptRoute(p.name)));
}

/** Resources and templates by their server (from the gateway's _meta, or the one upstream) and canonical URI. */
export function visibleResources<T extends { uri?: string; uriTemplate?: string; _meta?: Record<string, unknown> }>(view: CallerView, mode: GatewayMode, items: T[]): T[] {
  if (view.unrestricted) return items;
  return items.filter((item) => {
    const server = mode.kind === 'transparent' ? mode.server : item._meta?.[SERVER_META_KEY];
    const uri = item.uri ?? item.uriTemplate;
    return typeof server === 'string' && typeof uri === 'string' && view.allows(server, item.uri !== undefined ? canonicalUri(uri) : uri);
  });
}

/** Where a listed tool name goes, without waiting: the catalog entry, or the one upstream's raw name. */
export function toolRoute(up: Upstreams, mode: GatewayMode, name: string, caller?: UpstreamCaller): Route | undefined {
  if (mode.kind === 'transparent') return { server: mode.server, name };
  const entry = up.manager.lookup(name, caller);
  return entry ? { server: entry.server, name: entry.tool } : undefined;
}

/** Requests naming a resource by `params.uri`. */
const RESOURCE_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * The audit trail's tool and upstream for a request: the server its tool, prompt or resource routes
 * to, as the catalog knows now; for `call_tool` (--tool-search) the tool it calls.
 */
export function auditDescriber(pool: GatewayPool, callTool: string | undefined): AuditDescriber {
  return (request, caller) => {
    const params = request.params as { name?: unknown; uri?: unknown; arguments?: { name?: unknown } } | undefined;
    const inner = request.method === 'tools/call' && callTool !== undefined && params?.name === callTool ? params.arguments?.name : undefined;
    const name = typeof inner === 'string' ? inner : params?.name;
    const tool = typeof inner === 'string' ? { tool: inner } : {};
    const up = pool.peekUpstreams();
    const on = (server: string) => ({ ...tool, upstream: server, ...(up ? { identity: up.manager.identityOf(server, upstreamCaller(caller)) } : {}) });
    if (up && RESOURCE_METHODS.has(request.method) && typeof params?.uri === 'string') {
      const server = up.routes.known(params.uri);
      return server !== undefined ? on(server) : {};
    }
    if (!up || typeof name !== 'string') return pool.mode.kind === 'transparent' ? on(pool.mode.server) : tool;
    const route = request.method === 'tools/call' ? toolRoute(up, pool.mode, name, upstreamCaller(caller)) : request.method === 'prompts/get' ? up.catalog.promptRoute(name) : undefined;
    return route ? on(route.server) : tool;
  };
}
