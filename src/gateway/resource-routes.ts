// Resources keep their original URIs behind the gateway; this table says which server serves a URI.
// A URI (or URI template) offered by several servers goes to the first in config order, and the
// clash is logged once. URIs that are not listed are matched against the servers' templates. URIs
// are compared in their canonical form, so any spelling of a listed URI reaches the server that lists it.
import { UriTemplate } from '@modelcontextprotocol/server';
import type { Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import { canonicalUri, type McpConnectionManager } from '../mcp/index.js';
import type { UpstreamCaller } from '../mcp-client/index.js';
import type { Logger } from '../util/index.js';
import type { GatewayMode } from './catalog-view.js';

/** Where a gateway records which server an item came from (aggregating mode only). */
export const SERVER_META_KEY = 'switchboard/server';

interface Tables {
  uris: Map<string, string>;
  templates: { template: string; matcher: UriTemplate | undefined; server: string }[];
}

export class ResourceRoutes {
  private tables: Tables | undefined;
  private readonly clashes = new Set<string>();

  constructor(
    private readonly manager: McpConnectionManager,
    private readonly mode: GatewayMode,
    private readonly logger: Logger,
  ) {}

  async listResources(signal: AbortSignal, caller?: UpstreamCaller): Promise<Resource[]> {
    const byServer = await this.manager.listAllResources({ signal, ...(caller ? { caller } : {}) });
    const uris = new Map<string, string>();
    const out: Resource[] = [];
    for (const server of this.order(byServer.keys())) {
      for (const r of byServer.get(server) ?? []) {
        const key = canonicalUri(r.uri);
        const first = uris.get(key);
        if (first !== undefined) {
          this.clash('resource', r.uri, first, server);
          continue;
        }
        uris.set(key, server);
        out.push(this.attribute(r, server));
      }
    }
    this.tables = { uris, templates: this.tables?.templates ?? [] };
    return out;
  }

  async listTemplates(signal: AbortSignal, caller?: UpstreamCaller): Promise<ResourceTemplateType[]> {
    const byServer = await this.manager.listAllResourceTemplates({ signal, ...(caller ? { caller } : {}) });
    const templates: Tables['templates'] = [];
    const out: ResourceTemplateType[] = [];
    for (const server of this.order(byServer.keys())) {
      for (const t of byServer.get(server) ?? []) {
        const first = templates.find((x) => x.template === t.uriTemplate);
        if (first) {
          this.clash('resource template', t.uriTemplate, first.server, server);
          continue;
        }
        templates.push({ template: t.uriTemplate, matcher: matcher(t.uriTemplate), server });
        out.push(this.attribute(t, server));
      }
    }
    this.tables = { uris: this.tables?.uris ?? new Map(), templates };
    return out;
  }

  /** The server for a URI (listed, or matching a template), or for a template itself (completion). */
  async route(uri: string, signal: AbortSignal, caller?: UpstreamCaller): Promise<string | undefined> {
    const known = this.known(uri);
    if (known !== undefined) return known;
    await Promise.all([this.listResources(signal, caller), this.listTemplates(signal, caller)]);
    return find(this.tables!, uri);
  }

  /** The server for a URI from what was listed so far (no listing): for the audit trail. */
  known(uri: string): string | undefined {
    if (this.mode.kind === 'transparent') return this.mode.server;
    return this.tables ? find(this.tables, uri) : undefined;
  }

  /** Resources changed somewhere; the next lookup lists again. */
  invalidate(): void {
    this.tables = undefined;
  }

  private attribute<T extends { _meta?: Record<string, unknown> }>(item: T, server: string): T {
    if (this.mode.kind === 'transparent') return item;
    return { ...item, _meta: { ...item._meta, [SERVER_META_KEY]: server } };
  }

  /** Config order, whatever order the answers came in. */
  private order(servers: Iterable<string>): string[] {
    const present = new Set(servers);
    return this.manager.serverNames().filter((s) => present.has(s));
  }

  private clash(what: string, key: string, first: string, other: string): void {
    const id = `${what}\u0000${key}\u0000${other}`;
    if (this.clashes.has(id)) return;
    this.clashes.add(id);
    this.logger.warn(`gateway: ${what} ${key} is offered by MCP servers '${first}' and '${other}'; '${first}' (first in config order) serves it`);
  }
}

function matcher(template: string): UriTemplate | undefined {
  try {
    return new UriTemplate(template);
  } catch {
    return undefined;
  }
}

function find(tables: Tables, spelled: string): string | undefined {
  const uri = canonicalUri(spelled);
  const exact = tables.uris.get(uri);
  if (exact !== undefined) return exact;
  for (const t of tables.templates) if (t.template === spelled) return t.server;
  for (const t of tables.templates) if (t.matcher?.match(uri)) return t.server;
  return undefined;
}
