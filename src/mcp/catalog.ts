// The one model-visible catalog: every server's tools after filter and metadata policy, under
// collision-free names, with a lookup table from model-visible name to (server, raw tool name).
import type { Tool } from '@modelcontextprotocol/client';
import type { McpToolsChangedEvent } from '../protocol/index.js';
import { editDistance } from '../util/index.js';
import { applyMetadataPolicy, type TrustedServers } from './tool-metadata.js';
import type { ToolFilter } from './tool-filter.js';
import { compareNamingItems, nameSortedItems, namingItem, type NamingItem } from './tool-naming.js';

/** Where a catalog entry's definition comes from: the live server, or its startup snapshot while it starts. */
export type ToolSource = 'live' | 'snapshot';

/** One tool of the aggregated catalog: its model-visible name (`mcp__<server>__<tool>`) and where calls go. */
export interface CatalogEntry {
  /** Model-visible name; the routing key. */
  name: string;
  server: string;
  /** The raw tool name, sent back to the server. */
  tool: string;
  definition: Tool;
  source: ToolSource;
}

export interface ServerTools {
  server: string;
  tools: readonly Tool[];
  source: ToolSource;
  filter: ToolFilter;
}

/** One tool of a server's contribution, ready to be named; its last entry is reused while its name holds. */
interface PreparedTool extends NamingItem {
  readonly server: string;
  readonly tool: string;
  readonly def: Tool;
  readonly source: ToolSource;
  entry?: CatalogEntry;
}

/**
 * Each server's contribution after the metadata policy and the filter, with its tools' naming keys:
 * worked out once per tool list, not again on every rebuild of the catalog (one per server that
 * becomes ready, so a start of n servers would otherwise redo it n times for every tool).
 */
export class PreparedContributions {
  private readonly byServer = new Map<string, { tools: readonly Tool[]; source: ToolSource; filter: ToolFilter; prepared: PreparedTool[] }>();

  constructor(private readonly trusted: TrustedServers) {}

  /** The prepared tools of `servers`, in their order; servers no longer among them are forgotten. */
  collect(servers: readonly ServerTools[]): PreparedTool[] {
    const out: PreparedTool[] = [];
    // Index loops: this runs on every rebuild, before the optimiser has seen it, when for-of
    // allocates an iterator result per element.
    for (let i = 0; i < servers.length; i++) {
      const tools = this.prepare(servers[i]!);
      for (let j = 0; j < tools.length; j++) out.push(tools[j]!);
    }
    if (this.byServer.size > servers.length) {
      const present = new Set(servers.map((s) => s.server));
      for (const name of this.byServer.keys()) if (!present.has(name)) this.byServer.delete(name);
    }
    return out;
  }

  private prepare(s: ServerTools): PreparedTool[] {
    const cached = this.byServer.get(s.server);
    if (cached && cached.tools === s.tools && cached.source === s.source && cached.filter === s.filter) return cached.prepared;
    const prepared: PreparedTool[] = [];
    const seen = new Set<string>();
    for (const def of applyMetadataPolicy(s.server, s.tools, this.trusted)) {
      // A tool listed twice by its server: the first definition wins.
      if (!s.filter.allows(def.name) || seen.has(def.name)) continue;
      seen.add(def.name);
      const { id, base, baseBytes } = namingItem(s.server, def.name);
      prepared.push({ id, base, baseBytes, server: s.server, tool: def.name, def, source: s.source });
    }
    this.byServer.set(s.server, { tools: s.tools, source: s.source, filter: s.filter, prepared });
    return prepared;
  }
}

export class Catalog {
  /**
   * Built on the first lookup: a start rebuilds the catalog once per server that becomes ready, and
   * most of those catalogs are replaced before anyone looks a name up in them.
   */
  private byNameMap: Map<string, CatalogEntry> | undefined;

  private constructor(readonly entries: readonly CatalogEntry[]) {}

  static empty(): Catalog {
    return new Catalog([]);
  }

  private get byName(): ReadonlyMap<string, CatalogEntry> {
    if (this.byNameMap) return this.byNameMap;
    const map = new Map<string, CatalogEntry>();
    for (let i = 0; i < this.entries.length; i++) map.set(this.entries[i]!.name, this.entries[i]!);
    return (this.byNameMap = map);
  }

  /** `prepared` keeps each server's policy, filter and naming keys between builds (see {@link PreparedContributions}). */
  static build(servers: readonly ServerTools[], trusted: TrustedServers, maxNameBytes: number, prepared = new PreparedContributions(trusted)): Catalog {
    const tools = prepared.collect(servers).sort(compareNamingItems);
    const names = nameSortedItems(tools, maxNameBytes);
    const entries: CatalogEntry[] = new Array<CatalogEntry>(tools.length);
    for (let i = 0; i < tools.length; i++) {
      const t = tools[i]!;
      const name = names[i]!;
      // The same entry object as in the last catalog while nothing about it changed.
      if (t.entry?.name !== name) t.entry = { name, server: t.server, tool: t.tool, definition: t.def, source: t.source };
      entries[i] = t.entry;
    }
    return new Catalog(entries);
  }

  get(name: string): CatalogEntry | undefined {
    return this.byName.get(name);
  }

  /**
   * The entries of `previous` whose names this catalog no longer has. An entry kept unchanged is the
   * same object here, in the same (raw identity) order, so the usual rebuild, where every earlier
   * entry stays, is one walk of both lists; from the first entry not found that way on, names are
   * looked up.
   */
  departedFrom(previous: Catalog): CatalogEntry[] {
    const departed: CatalogEntry[] = [];
    const now = this.entries;
    let j = 0;
    let walking = true;
    for (let i = 0; i < previous.entries.length; i++) {
      const e = previous.entries[i]!;
      if (walking) {
        let k = j;
        while (k < now.length && now[k] !== e) k++;
        if (k < now.length) {
          j = k + 1;
          continue;
        }
        walking = false;
      }
      if (!this.get(e.name)) departed.push(e);
    }
    return departed;
  }

  forServer(server: string): CatalogEntry[] {
    return this.entries.filter((e) => e.server === server);
  }

  /** Model-visible names closest to `name`, for "did you mean" hints. */
  closest(name: string, limit = 3): string[] {
    const scored = this.entries.map((e) => ({ n: e.name, d: editDistance(name.toLowerCase(), e.name.toLowerCase()) }));
    return scored
      .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : 1))
      .slice(0, limit)
      .filter((s) => s.d <= Math.max(3, Math.floor(name.length / 3)) || s.n.includes(name))
      .map((s) => s.n);
  }
}

/** What changed in one server's contribution, by raw tool name. */
export function diffServerTools(server: string, before: readonly CatalogEntry[], after: readonly CatalogEntry[]): McpToolsChangedEvent {
  // A server's first contribution (each server on a start): all of it is added. Its tool names are
  // distinct (a catalog has one entry per server and tool).
  if (before.length === 0) return { server, added: after.map((e) => e.tool).sort(), removed: [], changed: [] };
  const old = new Map(before.map((e) => [e.tool, e.definition]));
  const now = new Map(after.map((e) => [e.tool, e.definition]));
  const added = [...now.keys()].filter((t) => !old.has(t)).sort();
  const removed = [...old.keys()].filter((t) => !now.has(t)).sort();
  // The same definition object is unchanged; another one is compared by its JSON.
  const changed = [...now.keys()].filter((t) => old.has(t) && old.get(t) !== now.get(t) && JSON.stringify(old.get(t)) !== JSON.stringify(now.get(t))).sort();
  return { server, added, removed, changed };
}
