// Format-preserving edits of config.toml: add, replace or remove one [mcp_servers.<name>] table
// (with its sub-tables, dotted keys or inline form) while every other byte of the file stays as it was.
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from './config-error.js';
import { parseTomlText } from './config.js';
import { scanToml, startsWithPath, type TomlKeyValue, type TomlStatement } from './toml-scan.js';
import { detectEol, isPlainTable, renderInline, renderKey, renderServerTables } from './toml-render.js';

type Table = Record<string, unknown>;

interface Splice {
  start: number;
  end: number;
  text: string;
  /** A removal: also drop the blank lines it leaves behind. */
  tidy: boolean;
}

/** The statements of a document and, for each table header, where its section ends. */
interface Layout {
  statements: TomlStatement[];
  /** For each header: where its section (header + its key/values) ends. */
  sectionEnd: Map<TomlStatement, number>;
}

function layoutOf(text: string): Layout {
  const statements = scanToml(text);
  const sectionEnd = new Map<TomlStatement, number>();
  let current: TomlStatement | null = null;
  for (const st of statements) {
    if (st.kind === 'header') current = st;
    if (current) sectionEnd.set(current, st.end);
  }
  return { statements, sectionEnd };
}

/** Length of the blank line starting at pos (0 when the line is not blank). */
function blankLineLength(text: string, pos: number): number {
  const m = /^[ \t]*\r?\n/.exec(text.slice(pos, pos + 256));
  return m ? m[0].length : 0;
}

function endsWithBlankLine(text: string, pos: number): boolean {
  if (pos === 0) return true;
  const before = text.slice(Math.max(0, pos - 256), pos);
  return /\n[ \t]*\r?\n$/.test(before) || /^[ \t]*\r?\n$/.test(before);
}

function applySplices(text: string, splices: Splice[]): string {
  let out = text;
  for (const sp of [...splices].sort((a, b) => b.start - a.start)) {
    let { start, end } = sp;
    if (sp.tidy && endsWithBlankLine(out, start)) {
      for (let n = blankLineLength(out, end); n > 0; n = blankLineLength(out, end)) end += n;
      if (end === out.length) {
        // Removed the tail of the file: drop the blank lines that separated it, keep one line end.
        while (start > 0 && /\n[ \t]*\r?\n$/.test(out.slice(Math.max(0, start - 256), start))) {
          start = out.lastIndexOf('\n', start - 2) + 1;
        }
      }
    }
    out = out.slice(0, start) + sp.text + out.slice(end);
  }
  return out;
}

/** A JSON-like canonical form (null-prototype tables and dates compare by value). */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return { $date: String(value) };
  if (Array.isArray(value)) return value.map(canonical);
  if (isPlainTable(value)) {
    const out: Table = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical(value[k]);
    return out;
  }
  return value;
}

/** A config.toml text with the edits made to it so far; `verify()` proves nothing else changed. */
export class ConfigDocument {
  private readonly original: Table;
  private readonly changes = new Map<string, Table | null>();
  private current: string;

  private constructor(
    readonly originalText: string,
    readonly file: string,
  ) {
    this.original = parseTomlText(originalText, file);
    this.current = originalText;
  }

  /** Parse `text` (a syntax error is a ConfigError with file, line and column). */
  static parse(text: string, file: string): ConfigDocument {
    return new ConfigDocument(text, file);
  }

  get text(): string {
    return this.current;
  }

  private servers(): Table {
    const raw = this.changes.size === 0 ? this.original : (parseToml(this.current) as Table);
    const servers = raw.mcp_servers;
    if (servers === undefined) return {};
    if (!isPlainTable(servers)) throw new ConfigError('mcp_servers must be a table', { file: this.file, keyPath: ['mcp_servers'] });
    return servers;
  }

  serverNames(): string[] {
    return Object.keys(this.servers());
  }

  hasServer(name: string): boolean {
    return Object.hasOwn(this.servers(), name);
  }

  /** Add `name`, or replace it in place when it exists. */
  setServer(name: string, table: Table): 'added' | 'replaced' {
    const existed = this.hasServer(name);
    this.edit(name, table);
    return existed ? 'replaced' : 'added';
  }

  /** Remove `name` and its sub-tables; false when there is no such server. */
  removeServer(name: string): boolean {
    if (!this.hasServer(name)) return false;
    this.edit(name, null);
    return true;
  }

  private edit(name: string, table: Table | null): void {
    const text = this.current;
    const eol = detectEol(text);
    const target = ['mcp_servers', name];
    const { statements, sectionEnd } = layoutOf(text);
    const splices: Splice[] = [];

    // `mcp_servers = { ... }` (or `mcp_servers.name = ...` under the root) holds the server inside
    // one value: rewrite just that value.
    const container = statements.find(
      (st): st is TomlKeyValue => st.kind === 'keyval' && st.path.length < target.length && startsWithPath(target, st.path),
    );
    if (container) {
      const value = parseToml(`v = ${text.slice(container.valueStart, container.valueEnd)}`).v;
      const next = this.withServer(value, target.slice(container.path.length), table);
      splices.push({ start: container.valueStart, end: container.valueEnd, text: renderInline(next), tidy: false });
    } else {
      const sections = statements.filter((st) => st.kind === 'header' && startsWithPath(st.path, target));
      const keyvals = statements.filter(
        (st): st is TomlKeyValue =>
          st.kind === 'keyval' && startsWithPath(st.path, target) && !startsWithPath(st.table, target),
      );
      const main = sections.find((st) => st.path.length === target.length);
      let placed = false;
      if (table && main) {
        splices.push({ start: main.start, end: sectionEnd.get(main)!, text: renderServerTables(name, table, eol), tidy: false });
        placed = true;
      } else if (table && keyvals[0]) {
        // Written as dotted keys or an inline table: keep that style, as one inline table.
        const first = keyvals[0];
        const indent = /^[ \t]*/.exec(text.slice(first.start))![0];
        const key = target.slice(first.table.length).map(renderKey).join('.');
        splices.push({ start: first.start, end: first.end, text: `${indent}${key} = ${renderInline(table)}${eol}`, tidy: false });
        placed = true;
      }
      for (const st of sections) if (!(placed && st === main)) splices.push({ start: st.start, end: sectionEnd.get(st)!, text: '', tidy: true });
      for (const st of keyvals) if (!(placed && st === keyvals[0] && !main)) splices.push({ start: st.start, end: st.end, text: '', tidy: true });
      if (table && !placed) splices.push(this.insertion(text, statements, sectionEnd, renderServerTables(name, table, eol), eol));
    }
    this.current = applySplices(text, splices);
    this.changes.set(name, table);
    this.verify();
  }

  private withServer(value: unknown, rest: string[], table: Table | null): Table {
    if (!isPlainTable(value)) throw new ConfigError(`${['mcp_servers', ...rest].join('.')} must be a table`, { file: this.file });
    const out: Table = { ...value };
    const [head, ...tail] = rest;
    if (tail.length > 0) out[head!] = this.withServer(out[head!] ?? {}, tail, table);
    else if (table) out[head!] = table;
    else delete out[head!];
    return out;
  }

  /** A new server goes after the last mcp_servers section, else at the end of the file. */
  private insertion(text: string, statements: TomlStatement[], sectionEnd: Map<TomlStatement, number>, rendered: string, eol: string): Splice {
    let at = -1;
    for (const st of statements) {
      if (st.kind === 'header' && st.path[0] === 'mcp_servers') at = sectionEnd.get(st)!;
    }
    if (at < 0 || at === text.length) {
      const trimmed = text.replace(/(\r?\n[ \t]*)+$/, '');
      if (trimmed.trim() === '') return { start: 0, end: text.length, text: rendered, tidy: false };
      return { start: trimmed.length, end: text.length, text: `${eol}${eol}${rendered}`, tidy: false };
    }
    const lead = text[at - 1] === '\n' ? '' : eol;
    return { start: at, end: at, text: `${lead}${eol}${rendered}`, tidy: false };
  }

  /** Re-parse the edited text and check that it holds exactly the intended servers and nothing else changed. */
  verify(): void {
    let next: Table;
    try {
      next = parseToml(this.current) as Table;
    } catch (err) {
      throw new ConfigError(`internal error: the edited config would not parse (${String(err)}); nothing was written`, { file: this.file }, { cause: err });
    }
    const expected: Table = { ...this.original };
    const servers: Table = isPlainTable(this.original.mcp_servers) ? { ...this.original.mcp_servers } : {};
    for (const [name, table] of this.changes) {
      if (table) servers[name] = table;
      else delete servers[name];
    }
    expected.mcp_servers = servers;
    const actual: Table = { ...next, mcp_servers: next.mcp_servers ?? {} };
    if (!process.getBuiltinModule('node:util').isDeepStrictEqual(canonical(actual), canonical(expected))) {
      throw new ConfigError('internal error: the edit would change more than the MCP server table; nothing was written', { file: this.file });
    }
  }
}
