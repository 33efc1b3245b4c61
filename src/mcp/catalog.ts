// The one model-visible catalog: every server's tools after filter and metadata policy, under
// collision-free names, with a lookup table from model-visible name to (server, raw tool name).
import type { Tool } from '@modelcontextprotocol/client';
import type { McpToolsChangedEvent } from '../protocol/index.js';
import { applyMetadataPolicy, type TrustedServers } from './tool-metadata.js';
import type { ToolFilter } from './tool-filter.js';
import { assignToolNames } from './tool-naming.js';

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

export class Catalog {
  private constructor(
    readonly entries: readonly CatalogEntry[],
    private readonly byName: ReadonlyMap<string, CatalogEntry>,
  ) {}

  static empty(): Catalog {
    return new Catalog([], new Map());
  }

  static build(servers: readonly ServerTools[], trusted: TrustedServers, maxNameBytes: number): Catalog {
    const defs = new Map<string, { def: Tool; source: ToolSource }>();
    for (const s of servers) {
      for (const def of applyMetadataPolicy(s.server, s.tools, trusted)) {
        if (!s.filter.allows(def.name)) continue;
        const key = `${s.server}\u0000${def.name}`;
        if (!defs.has(key)) defs.set(key, { def, source: s.source });
      }
    }
    const named = assignToolNames(
      [...defs.keys()].map((k) => {
        const [server, tool] = k.split('\u0000') as [string, string];
        return { server, tool };
      }),
      maxNameBytes,
    );
    const entries = named.tools.map((t): CatalogEntry => {
      const { def, source } = defs.get(`${t.server}\u0000${t.tool}`)!;
      return { name: t.name, server: t.server, tool: t.tool, definition: def, source };
    });
    return new Catalog(entries, new Map(entries.map((e) => [e.name, e])));
  }

  get(name: string): CatalogEntry | undefined {
    return this.byName.get(name);
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
  const old = new Map(before.map((e) => [e.tool, JSON.stringify(e.definition)]));
  const now = new Map(after.map((e) => [e.tool, JSON.stringify(e.definition)]));
  const added = [...now.keys()].filter((t) => !old.has(t)).sort();
  const removed = [...old.keys()].filter((t) => !now.has(t)).sort();
  const changed = [...now.keys()].filter((t) => old.has(t) && old.get(t) !== now.get(t)).sort();
  return { server, added, removed, changed };
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}
