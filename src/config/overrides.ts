// `-c key=value` overrides (Codex's rule): dotted path; the value is parsed as TOML, else taken as a string.
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from './config-error.js';

/** One `-c key=value` override: a dotted key path and its TOML-parsed value. */
export interface ConfigOverride {
  path: string[];
  value: unknown;
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

export function parseOverrideValue(text: string): unknown {
  try {
    return parseToml(`v = ${text}`).v;
  } catch {
    return text;
  }
}

/** Parse a `-c key=value` argument (the value as TOML, else as a plain string), as the CLI does. */
export function parseOverride(arg: string): ConfigOverride {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new ConfigError(`invalid -c override '${arg}': expected key=value`);
  return { path: splitKeyPath(arg.slice(0, eq)), value: parseOverrideValue(arg.slice(eq + 1).trim()) };
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
