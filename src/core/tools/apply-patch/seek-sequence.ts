// Finds where a hunk's lines sit in a file, from strict to tolerant (as Codex): exact, then ignoring
// trailing whitespace, then ignoring surrounding whitespace, then with typographic punctuation and
// odd spaces folded to ASCII. The first pass that matches anywhere wins.

const PUNCTUATION: Record<string, string> = {};
for (const c of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') PUNCTUATION[c] = '-';
for (const c of '\u2018\u2019\u201A\u201B') PUNCTUATION[c] = "'";
for (const c of '\u201C\u201D\u201E\u201F') PUNCTUATION[c] = '"';
for (const c of '\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000') PUNCTUATION[c] = ' ';
const PUNCTUATION_RE = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');

function normalise(s: string): string {
  return s.trim().replace(PUNCTUATION_RE, (c) => PUNCTUATION[c]!);
}

const PASSES: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim(), normalise];

/**
 * Index in `lines` (at or after `start`) where `pattern` begins, or -1. With `endOfFile`, a match
 * ending at the last line is tried first.
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, endOfFile: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const last = lines.length - pattern.length;
  const from = endOfFile ? last : start;
  for (const fold of PASSES) {
    const want = pattern.map(fold);
    for (let i = from; i <= last; i++) {
      let ok = true;
      for (let j = 0; j < want.length; j++) {
        if (fold(lines[i + j]!) !== want[j]) {
          ok = false;
          break;
        }
      }
      if (ok) return i;
    }
  }
  if (endOfFile && from !== start) return seekSequence(lines, pattern, start, false);
  return -1;
}
