// The manager's current catalog and the names that left it: rebuilt from every server's
// contribution whenever one changes, with a diff per server for mcp_tools_changed.
import type { McpToolsChangedEvent } from '../protocol/index.js';
import { McpClientError } from '../util/index.js';
import { Catalog, diffServerTools, PreparedContributions, type CatalogEntry, type ServerTools } from './catalog.js';
import type { ManagedServer } from './managed-server.js';
import type { TrustedServers } from './tool-metadata.js';

export class CatalogState {
  private current = Catalog.empty();
  /** Names that left the catalog (their server failed or dropped the tool): a call says why. */
  private readonly retired = new Map<string, CatalogEntry>();
  private readonly prepared: PreparedContributions;
  /** What the current catalog was built from. */
  private built: readonly ServerTools[] = [];

  constructor(
    private readonly trusted: TrustedServers,
    private readonly maxNameBytes: number,
  ) {
    this.prepared = new PreparedContributions(trusted);
  }

  get entries(): readonly CatalogEntry[] {
    return this.current.entries;
  }

  get(name: string): CatalogEntry | undefined {
    return this.current.get(name);
  }

  /** The entry a call by `name` goes to: current, or the last one that had the name. */
  forCall(name: string): CatalogEntry | undefined {
    return this.current.get(name) ?? this.retired.get(name);
  }

  /** The error for a name no live list or snapshot has shown, with the names it is closest to. */
  unknownTool(name: string): McpClientError {
    const close = this.closest(name);
    return new McpClientError('unknown_tool', `unknown MCP tool '${name}'${close.length ? ` (did you mean ${close.map((c) => `'${c}'`).join(', ')}?)` : ''}`);
  }

  closest(name: string): string[] {
    return this.current.closest(name);
  }

  /** Swap in a catalog built from `contributions`; returns what changed for `server`. */
  rebuild(contributions: readonly ServerTools[], server: string): McpToolsChangedEvent {
    // The catalog is a function of the contributions: the same ones (a server starting without a
    // snapshot, say) leave it as it is.
    if (sameContributions(this.built, contributions)) return { server, added: [], removed: [], changed: [] };
    this.built = contributions;
    const previous = this.current;
    this.current = Catalog.build(contributions, this.trusted, this.maxNameBytes, this.prepared);
    for (const e of this.current.departedFrom(previous)) this.retired.set(e.name, e);
    // An index loop: no iterator result per entry on each of a start's rebuilds (see PreparedContributions.collect).
    const now = this.current.entries;
    for (let i = 0; i < now.length; i++) this.retired.delete(now[i]!.name);
    return diffServerTools(server, previous.forServer(server), this.current.forServer(server));
  }
}

function sameContributions(a: readonly ServerTools[], b: readonly ServerTools[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.server !== y.server || x.tools !== y.tools || x.source !== y.source || x.filter !== y.filter) return false;
  }
  return true;
}

/** What each server contributes to the catalog now (its live or snapshot tools, and its filter). */
export function contributionsOf(servers: Iterable<ManagedServer>): ServerTools[] {
  const out: ServerTools[] = [];
  for (const s of servers) {
    const t = s.tools;
    if (t) out.push({ server: s.name, tools: t.tools, source: t.source, filter: s.filter });
  }
  return out;
}
