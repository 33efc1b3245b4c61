// What one caller of the gateway may see and use, by the [server_auth] rules over its token's
// claims: the lists filtered to its view, and every name outside it treated as one no server
// offers, so the view leaks nothing (no "did you mean", no "server unavailable" for it).
import type { Prompt, ServerContext, Tool } from '@modelcontextprotocol/server';
import { callerOf, UNRESTRICTED, type AccessPolicy, type AuditDescriber, type CallerView } from '../mcp-host/index.js';
import { canonicalUri } from '../mcp/index.js';
import type { GatewayMode, Route } from './catalog-view.js';
import { SERVER_META_KEY } from './resource-routes.js';
import type { GatewayPool } from './gateway-pool.js';
import type { Upstreams } from './upstreams.js';

/** The view of the caller whose request `ctx` is (unrestricted without [server_auth] rules, on stdio, for the static token). */
export function viewOf(access: AccessPolicy | undefined, ctx: ServerContext): CallerView {
  return access?.viewFor(callerOf(ctx.http?.authInfo)) ?? UNRESTRICTED;
}

export function mayUse(view: CallerView, route: Route | undefined): route is Route {
  return route !== undefined && (view.unrestricted || view.allows(route.server, route.name));
}

export function visibleTools(view: CallerView, up: Upstreams, mode: GatewayMode, tools: Tool[]): Tool[] {
  if (view.unrestricted) return tools;
  return tools.filter((t) => mayUse(view, toolRoute(up, mode, t.name)));
}

export function visiblePrompts(view: CallerView, up: Upstreams, prompts: Prompt[]): Prompt[] {
  if (view.unrestricted) return prompts;
  return prompts.filter((p) => mayUse(view, up.catalog.promptRoute(p.name)));
}

/** Resources and templates by `<server>__<uri>` (their server from the gateway's _meta, or the one upstream). */
export function visibleResources<T extends { uri?: string; uriTemplate?: string; _meta?: Record<string, unknown> }>(view: CallerView, mode: GatewayMode, items: T[]): T[] {
  if (view.unrestricted) return items;
  return items.filter((item) => {
    const server = mode.kind === 'transparent' ? mode.server : item._meta?.[SERVER_META_KEY];
    const uri = item.uri ?? item.uriTemplate;
    return typeof server === 'string' && typeof uri === 'string' && view.allows(server, canonicalUri(uri));
  });
}

/** Where a listed tool name goes, without waiting: the catalog entry, or the one upstream's raw name. */
export function toolRoute(up: Upstreams, mode: GatewayMode, name: string): Route | undefined {
  if (mode.kind === 'transparent') return { server: mode.server, name };
  const entry = up.manager.lookup(name);
  return entry ? { server: entry.server, name: entry.tool } : undefined;
}

/** The audit trail's upstream for a request: the server its tool or prompt routes to, as the catalog knows now. */
export function auditDescriber(pool: GatewayPool): AuditDescriber {
  return (request) => {
    const up = pool.peekUpstreams();
    const name = (request.params as { name?: unknown } | undefined)?.name;
    if (!up || typeof name !== 'string') return pool.mode.kind === 'transparent' ? { upstream: pool.mode.server } : undefined;
    const route = request.method === 'tools/call' ? toolRoute(up, pool.mode, name) : request.method === 'prompts/get' ? up.catalog.promptRoute(name) : undefined;
    return route ? { upstream: route.server } : undefined;
  };
}
