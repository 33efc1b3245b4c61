// `-c key=value` overrides (Codex's rule): dotted path; the value is parsed as TOML, else taken as a string.
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from './config-error.js';

/** One `-c key=value` override: a dotted key path and its TOML-parsed value. */
export interface ConfigOverride {
  path: string[];
  value: unknown;
  /** The `key=value` text it came from: errors about what it set name it instead of the file. */
  source?: string;
  /** Why a value that opens like TOML (`[bad`, `{x`) was taken as a plain string: the parser's complaint. */
  notToml?: string;
}

/** Split `a.b."c.d"` into ['a', 'b', 'c.d']. */
export function splitKeyPath(key: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of key) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '.') {
      parts.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  parts.push(cur.trim());
  if (quote || parts.some((p) => p === '')) throw new ConfigError(`invalid override key '${key}'`);
  return parts;
}

/** The value as TOML, else the text itself, with the parser's complaint (first line). */
function readOverrideValue(text: string): { value: unknown; notToml?: string } {
  try {
    return { value: parseToml(`v = ${text}`).v };
  } catch (err) {
    return { value: text, notToml: (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/^Invalid TOML document: /, '') };
  }
}

/** Parse a `-c key=value` argument (the value as TOML, else as a plain string), as the CLI does. */
export function parseOverride(arg: string): ConfigOverride {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new ConfigError(`invalid -c override '${arg}': expected key=value`);
  const { value, notToml } = readOverrideValue(arg.slice(eq + 1).trim());
  // `model=gpt-5` is a string on purpose; `[bad`, `{x` or `"open` were meant as TOML.
  const meantToml = notToml !== undefined && /^[[{"']/.test(String(value));
  return { path: splitKeyPath(arg.slice(0, eq)), value, source: arg, ...(meantToml ? { notToml } : {}) };
}

const startsWith = (path: readonly string[], prefix: readonly string[]) => prefix.length <= path.length && prefix.every((p, i) => p === path[i]);

function hasPath(raw: Table, path: readonly string[]): boolean {
  let node: unknown = raw;
  for (const seg of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, seg)) return false;
    node = (node as Table)[seg];
  }
  return true;
}

/**
 * The override an error at `keyPath` is about, if any (the last one wins, as when applying them): one
 * that set a value the key lies in, or that made the table at fault where the file has none.
 */
export function overrideAt(keyPath: readonly string[], overrides: readonly ConfigOverride[], fileRaw: Table): ConfigOverride | undefined {
  for (let i = overrides.length - 1; i >= 0; i--) {
    const o = overrides[i]!;
    if (startsWith(keyPath, o.path) || (startsWith(o.path, keyPath) && !hasPath(fileRaw, keyPath))) return o;
  }
  return undefined;
}

/** A config error blamed on the override `o` rather than the file: `-c key=value: ...`. */
export function blameOverride(err: ConfigError, o: ConfigOverride): ConfigError {
  const text = o.source ?? `${o.path.join('.')}=...`;
  const note = o.notToml !== undefined && typeof o.value === 'string' ? `; the value is not valid TOML (${o.notToml}), so it was read as the string ${JSON.stringify(o.value)}` : '';
  return new ConfigError(`${err.detail}${note}`, { keyPath: err.location.keyPath, override: text }, { cause: err.cause });
}

type Table = Record<string, unknown>;

/** Apply overrides to a raw config table, creating intermediate tables; returns a new object. */
export function applyOverrides(raw: Table, overrides: readonly ConfigOverride[]): Table {
  const root: Table = structuredClone(raw);
  for (const { path, value } of overrides) {
    let node = root;
    for (const seg of path.slice(0, -1)) {
      const next = node[seg];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[seg] = {};
      node = node[seg] as Table;
    }
    node[path[path.length - 1]!] = value;
  }
  return root;
}
