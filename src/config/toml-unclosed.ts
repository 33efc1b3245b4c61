// Where a TOML document opens an array or inline table it never closes. The parser notices only
// where it gives up (often the end of the file); the error should point at the bracket instead.

/** The first `[` or `{` still open at the end of `text`, 1-based, or undefined when all are closed. */
export function unclosedBracket(text: string): { line: number; column: number; kind: 'array' | 'inline table' } | undefined {
  const open: number[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '#') {
      i = lineEnd(text, i);
    } else if (ch === '"' || ch === "'") {
      i = stringEnd(text, i);
    } else if (ch === '[' || ch === '{') {
      open.push(i++);
    } else if (ch === ']' || ch === '}') {
      open.pop();
      i++;
    } else {
      i++;
    }
  }
  if (open.length === 0) return undefined;
  const at = open[0]!;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - (before.lastIndexOf('\n') + 1) + 1, kind: text[at] === '[' ? 'array' : 'inline table' };
}

function lineEnd(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl < 0 ? text.length : nl;
}

/** Just past the string starting at `i` (basic or literal, one line or multi-line); an unterminated one-line string ends at its line. */
function stringEnd(text: string, i: number): number {
  const quote = text[i]!;
  if (text.startsWith(quote.repeat(3), i)) {
    const close = text.indexOf(quote.repeat(3), i + 3);
    return close < 0 ? text.length : close + 3;
  }
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\n') return j;
    if (quote === '"' && c === '\\') j++;
    else if (c === quote) return j + 1;
  }
  return text.length;
}
