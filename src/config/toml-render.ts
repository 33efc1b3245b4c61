// Renders [mcp_servers.<name>] tables (and inline tables) as TOML text with smol-toml's value syntax.
import { stringify } from 'smol-toml';

type Table = Record<string, unknown>;

export function isPlainTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** A key as TOML writes it: bare when it can be, else a basic string. */
export function renderKey(key: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(key)) return key;
  return renderScalar(key);
}

function renderScalar(value: unknown): string {
  const line = stringify({ v: value });
  return line.slice('v = '.length).replace(/\r?\n$/, '');
}

/** One value in inline syntax: `{ a = 1, b = [ "x" ] }`. */
export function renderInline(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(renderInline).join(', ')} ]`;
  if (isPlainTable(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${renderKey(k)} = ${renderInline(v)}`).join(', ')} }`;
  }
  return renderScalar(value);
}

/** `[mcp_servers.<name>]` with its scalar keys, then sub-tables such as `[mcp_servers.<name>.env]`. */
export function renderServerTables(name: string, table: Table, eol: string): string {
  const text = `${stringify({ mcp_servers: { [name]: table } }).replace(/\n+$/, '')}\n`;
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}

/** The file's line ending: CRLF when the text uses it, else LF. */
export function detectEol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
