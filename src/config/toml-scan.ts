// Finds where each table header and key/value statement of a TOML document starts and ends, so
// edits can splice text in place instead of re-serialising (and reformatting) the whole file.
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from './config-error.js';

/** `[a.b]` or `[[a.b]]`; `start` is the line start, `end` is just past the line's newline. */
export interface TomlHeader {
  kind: 'header';
  array: boolean;
  path: string[];
  start: number;
  end: number;
}

/** `key = value` in table `table`; `path` is table + key. The value may span lines (arrays, strings). */
export interface TomlKeyValue {
  kind: 'keyval';
  table: string[];
  key: string[];
  path: string[];
  start: number;
  valueStart: number;
  valueEnd: number;
  end: number;
}

export type TomlStatement = TomlHeader | TomlKeyValue;

const BARE_KEY_STOP = new Set([' ', '\t', '=', '.', '[', ']', '#', '"', "'", '\r', '\n']);

class Scanner {
  pos = 0;

  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new ConfigError(`cannot edit config: ${what} at offset ${this.pos}`);
  }

  at(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  skipBlanks(): void {
    while (this.text[this.pos] === ' ' || this.text[this.pos] === '\t') this.pos++;
  }

  /** After a statement: optional comment, then a newline (consumed) or the end of the text. */
  finishLine(): number {
    this.skipBlanks();
    if (this.text[this.pos] === '#') this.skipComment();
    if (this.at('\r\n')) this.pos += 2;
    else if (this.text[this.pos] === '\n') this.pos += 1;
    else if (this.pos < this.text.length) this.fail('unexpected text after a statement');
    return this.pos;
  }

  skipComment(): void {
    const nl = this.text.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.text.length : nl;
    if (this.text[this.pos - 1] === '\r') this.pos--;
  }

  /** Skips one string starting at pos and returns its source text. */
  skipString(): string {
    const start = this.pos;
    const text = this.text;
    if (this.at('"""') || this.at("'''")) {
      const quote = text[this.pos]!;
      const literal = quote === "'";
      this.pos += 3;
      for (;;) {
        if (this.pos >= text.length) this.fail('unterminated multi-line string');
        if (!literal && text[this.pos] === '\\') {
          this.pos += 2;
        } else if (this.at(quote.repeat(3))) {
          // Up to two quotes may sit right before the closing delimiter ("""a""""" is a"").
          let run = 0;
          while (text[this.pos + run] === quote && run < 5) run++;
          this.pos += run;
          return text.slice(start, this.pos);
        } else {
          this.pos++;
        }
      }
    }
    const quote = text[this.pos]!;
    this.pos++;
    for (;;) {
      const ch = text[this.pos];
      if (ch === undefined || ch === '\n') this.fail('unterminated string');
      if (quote === '"' && ch === '\\') this.pos += 2;
      else if (ch === quote) return text.slice(start, ++this.pos);
      else this.pos++;
    }
  }

  readKey(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipBlanks();
      const ch = this.text[this.pos];
      if (ch === '"') parts.push(String(parseToml(`k = ${this.skipString()}`).k));
      else if (ch === "'") parts.push(this.skipString().slice(1, -1));
      else {
        const start = this.pos;
        while (this.pos < this.text.length && !BARE_KEY_STOP.has(this.text[this.pos]!)) this.pos++;
        if (this.pos === start) this.fail('expected a key');
        parts.push(this.text.slice(start, this.pos));
      }
      this.skipBlanks();
      if (this.text[this.pos] !== '.') return parts;
      this.pos++;
    }
  }

  /** Skips a value (which may span lines inside brackets); returns the end of its last character. */
  skipValue(): number {
    let depth = 0;
    let end = this.pos;
    const text = this.text;
    while (this.pos < text.length) {
      const ch = text[this.pos]!;
      if (ch === '"' || ch === "'") {
        this.skipString();
        end = this.pos;
      } else if (ch === '[' || ch === '{') {
        depth++;
        end = ++this.pos;
      } else if (ch === ']' || ch === '}') {
        depth--;
        end = ++this.pos;
      } else if (ch === '#') {
        if (depth === 0) break;
        this.skipComment();
      } else if (ch === '\n' || ch === '\r') {
        if (depth === 0) break;
        this.pos++;
      } else if (ch === ' ' || ch === '\t') {
        // Blanks may sit inside a value (a date-time "1979-05-27 07:32:00"), so they do not end it.
        this.pos++;
      } else {
        end = ++this.pos;
      }
    }
    if (depth !== 0) this.fail('unbalanced brackets');
    return end;
  }
}

/** Lists the statements of a (syntactically valid) TOML document in order. */
export function scanToml(text: string): TomlStatement[] {
  const s = new Scanner(text);
  const out: TomlStatement[] = [];
  let table: string[] = [];
  if (text.startsWith('\uFEFF')) s.pos = 1;
  while (s.pos < text.length) {
    const lineStart = s.pos;
    s.skipBlanks();
    const ch = text[s.pos];
    if (ch === undefined) break;
    if (ch === '\n' || s.at('\r\n')) {
      s.pos += ch === '\n' ? 1 : 2;
      continue;
    }
    if (ch === '#') {
      s.skipComment();
      s.finishLine();
      continue;
    }
    if (ch === '[') {
      const array = s.at('[[');
      s.pos += array ? 2 : 1;
      const path = s.readKey();
      if (!s.at(array ? ']]' : ']')) s.fail('expected ] after a table name');
      s.pos += array ? 2 : 1;
      out.push({ kind: 'header', array, path, start: lineStart, end: s.finishLine() });
      table = path;
      continue;
    }
    const key = s.readKey();
    if (text[s.pos] !== '=') s.fail('expected = after a key');
    s.pos++;
    s.skipBlanks();
    const valueStart = s.pos;
    const valueEnd = s.skipValue();
    out.push({ kind: 'keyval', table, key, path: [...table, ...key], start: lineStart, valueStart, valueEnd, end: s.finishLine() });
  }
  return out;
}

/** True when `prefix` is a prefix of `path` (or equal to it). */
export function startsWithPath(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
}
