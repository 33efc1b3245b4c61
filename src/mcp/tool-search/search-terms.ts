// How tool names and queries become search terms: identifiers split on `_`, `-`, `.`, `/` and
// camelCase, lower-cased, with plurals folded and filler words dropped, the same way for both sides.

const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'how', 'i', 'if', 'in',
  'into', 'is', 'it', 'its', 'me', 'my', 'of', 'on', 'or', 'please', 'some', 'that', 'the', 'their', 'then',
  'this', 'to', 'tool', 'use', 'using', 'want', 'was', 'we', 'what', 'when', 'which', 'will', 'with', 'you', 'your',
  'mcp', 'need', 'should', 'would', 'via', 'all', 'any',
]);

/** `readFileAsync` → read File Async; `HTTPServer` → HTTP Server; `v2Api` → v 2 Api. */
function splitCamel(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(' ');
}

/** Split text into words: on anything but letters and digits, then on camelCase. Case is kept. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{N}]+/u)) {
    if (chunk === '') continue;
    for (const w of splitCamel(chunk)) if (w !== '') out.push(w);
  }
  return out;
}

/** Fold a lower-cased word to the form both the index and queries use (`files` → `file`). */
export function foldTerm(word: string): string | null {
  if (STOP_WORDS.has(word)) return null;
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * Words that name the same thing in tool catalogs; a query word also matches the others of its
 * group (a query's side only: the index keeps what the tools say).
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['create', 'make', 'new'],
  ['delete', 'remove', 'erase', 'drop'],
  ['directory', 'folder', 'dir'],
  ['env', 'environment'],
  ['find', 'search', 'lookup'],
  ['repo', 'repository'],
  ['image', 'picture', 'img'],
  ['message', 'msg'],
];
const SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map(SYNONYM_GROUPS.flatMap((g) => g.map((w) => [w, g.filter((o) => o !== w)] as const)));

/** What one indexed word is stored as: its folded form, and its surface form when that differs (so `comments` favours tools that say `comments`). */
export function indexTerms(word: string): string[] {
  const w = word.toLowerCase();
  const folded = foldTerm(w);
  if (folded === null) return [];
  return folded === w ? [w] : [folded, w];
}

/** What one query word matches: its index terms and those of its synonyms. */
export function queryTerms(word: string): string[] {
  const own = indexTerms(word);
  if (own.length === 0) return [];
  return [...own, ...(SYNONYMS.get(own[0]!) ?? [])];
}

/** The search terms of a text (what MiniSearch indexes and what a query is matched with). */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) {
    const t = foldTerm(w.toLowerCase());
    if (t !== null) out.push(t);
  }
  return out;
}

/** A name as compared for an exact match: lower case, separators removed (`read_file` = `readFile`). */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
