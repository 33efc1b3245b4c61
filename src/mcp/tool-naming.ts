// Model-visible tool names: `mcp__<server>__<tool>`, sanitised, length-capped, collision-free, and
// determined only by the set of (server, tool) pairs — never by the order servers became ready.
export const DEFAULT_MAX_TOOL_NAME_BYTES = 64;
const SUFFIX_HEX = 12;
/** "_" + 12 hex characters. */
const SUFFIX_LENGTH = SUFFIX_HEX + 1;

export interface RawToolRef {
  server: string;
  tool: string;
}

export interface NamedTool extends RawToolRef {
  /** The model-visible name. */
  name: string;
}

export interface NamingResult {
  /** Sorted by raw identity. */
  tools: NamedTool[];
  /** Exact duplicates (same server, same tool name) that were dropped. */
  duplicates: RawToolRef[];
}

export function sanitizeNamePart(part: string): string {
  const out = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return out === '' ? '_' : out;
}

function identity(ref: RawToolRef): string {
  return `${ref.server}\u0000${ref.tool}`;
}

/**
 * Whether `name` may be the model-visible name of one of `server`'s tools, whatever its tools are:
 * every name given to them starts with `mcp__<server>__` cut to what a suffixed name keeps of it.
 * (Another server's tool may pass too; a tool of this server never fails.)
 */
export function nameMayBelongTo(name: string, server: string, maxBytes = DEFAULT_MAX_TOOL_NAME_BYTES): boolean {
  const prefix = `mcp__${sanitizeNamePart(server)}__`;
  return name.startsWith(prefix.slice(0, Math.max(0, maxBytes - SUFFIX_LENGTH)));
}

/** node:crypto is taken here, at the first name that needs a suffix (docs/architecture.md, conventions). */
function sha1Hex(text: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha1').update(text, 'utf8').digest('hex');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One tool to name: its raw identity (`server \0 tool`, the sort key) and its unsuffixed name. */
export interface NamingItem {
  readonly id: string;
  /** `mcp__<server>__<tool>`, sanitised. */
  readonly base: string;
  readonly baseBytes: number;
}

export function namingItem(server: string, tool: string): NamingItem {
  const base = `mcp__${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  return { id: identity({ server, tool }), base, baseBytes: Buffer.byteLength(base) };
}

/** Orders naming items (or anything carrying one's id) by raw identity, as names are assigned. */
export function compareNamingItems(a: { readonly id: string }, b: { readonly id: string }): number {
  return compare(a.id, b.id);
}

/**
 * Assign model-visible names. A name that fits and is unique after sanitising is kept as is. A name
 * that is too long, or whose sanitised form is shared by several distinct tools, is truncated and
 * given `_<first 12 hex of sha1(server \0 tool)>`; every member of a collision gets a suffix.
 */
export function assignToolNames(refs: Iterable<RawToolRef>, maxBytes = DEFAULT_MAX_TOOL_NAME_BYTES): NamingResult {
  const seen = new Map<string, RawToolRef>();
  const duplicates: RawToolRef[] = [];
  for (const ref of refs) {
    const id = identity(ref);
    if (seen.has(id)) duplicates.push(ref);
    else seen.set(id, ref);
  }
  const sorted = [...seen.values()].map((ref) => ({ ref, item: namingItem(ref.server, ref.tool) })).sort((a, b) => compareNamingItems(a.item, b.item));
  const names = nameSortedItems(sorted.map((s) => s.item), maxBytes);
  return {
    tools: sorted.map(({ ref }, i) => ({ server: ref.server, tool: ref.tool, name: names[i]! })),
    duplicates,
  };
}

/**
 * The names of distinct items sorted by {@link compareNamingItems}, in their order. Most names stand
 * on their own, so the set of taken names is built only when some name needs a suffix.
 */
export function nameSortedItems(items: readonly NamingItem[], maxBytes: number): string[] {
  const shared = sharedBases(items);
  const names: (string | undefined)[] = new Array<string | undefined>(items.length);
  let suffixed = false;
  // Plain names first, so a suffixed name can never take a name that stands on its own.
  for (let i = 0; i < items.length; i++) {
    const { base, baseBytes } = items[i]!;
    if (!shared?.has(base) && baseBytes <= maxBytes) names[i] = base;
    else suffixed = true;
  }
  if (!suffixed) return names as string[];
  const taken = new Set<string>();
  for (let i = 0; i < names.length; i++) if (names[i] !== undefined) taken.add(names[i]!);
  for (let i = 0; i < items.length; i++) {
    if (names[i] !== undefined) continue;
    const { id, base } = items[i]!;
    const head = base.slice(0, Math.max(0, maxBytes - SUFFIX_LENGTH));
    for (let attempt = 0; ; attempt++) {
      const hashInput = attempt === 0 ? id : `${id}\u0000${attempt}`;
      const candidate = `${head}_${sha1Hex(hashInput).slice(0, SUFFIX_HEX)}`;
      if (!taken.has(candidate)) {
        names[i] = candidate;
        taken.add(candidate);
        break;
      }
    }
  }
  return names as string[];
}

/**
 * The bases more than one item has, or undefined when none does (the usual case). A sorted copy of
 * the bases finds them without a map of every base: this runs on each catalog rebuild, once per
 * server that becomes ready, and the map's growth was most of a start-up's allocation here.
 */
function sharedBases(items: readonly NamingItem[]): Set<string> | undefined {
  const bases = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) bases[i] = items[i]!.base;
  bases.sort();
  let shared: Set<string> | undefined;
  for (let i = 1; i < bases.length; i++) if (bases[i] === bases[i - 1]) (shared ??= new Set()).add(bases[i]!);
  return shared;
}
