// Model-visible tool names: `mcp__<server>__<tool>`, sanitised, length-capped, collision-free, and
// determined only by the set of (server, tool) pairs — never by the order servers became ready.
import { createHash } from 'node:crypto';

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

function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
  const sorted = [...seen.entries()].sort(([a], [b]) => compare(a, b));
  const bases = sorted.map(([id, ref]) => ({ id, ref, base: `mcp__${sanitizeNamePart(ref.server)}__${sanitizeNamePart(ref.tool)}` }));
  const countByBase = new Map<string, number>();
  for (const { base } of bases) countByBase.set(base, (countByBase.get(base) ?? 0) + 1);

  const taken = new Set<string>();
  const names = new Map<string, string>();
  // Plain names first, so a suffixed name can never take a name that stands on its own.
  for (const { id, base } of bases) {
    if (countByBase.get(base) === 1 && Buffer.byteLength(base) <= maxBytes) {
      names.set(id, base);
      taken.add(base);
    }
  }
  for (const { id, base } of bases) {
    if (names.has(id)) continue;
    const head = base.slice(0, Math.max(0, maxBytes - SUFFIX_LENGTH));
    for (let attempt = 0; ; attempt++) {
      const hashInput = attempt === 0 ? id : `${id}\u0000${attempt}`;
      const candidate = `${head}_${sha1Hex(hashInput).slice(0, SUFFIX_HEX)}`;
      if (!taken.has(candidate)) {
        names.set(id, candidate);
        taken.add(candidate);
        break;
      }
    }
  }
  return {
    tools: bases.map(({ id, ref }) => ({ server: ref.server, tool: ref.tool, name: names.get(id)! })),
    duplicates,
  };
}
