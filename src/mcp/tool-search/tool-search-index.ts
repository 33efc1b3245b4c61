// The tool search index: BM25 (MiniSearch) over each tool's name, server, title, description and
// parameters, with two rules on top: a tool named exactly in the query ranks first, and a server
// named in the query lifts its tools. Results are deterministic (score, then name).
import type MiniSearchType from 'minisearch';
import { docFields, type DocFields, type ToolSearchDoc } from './search-doc.js';
import { indexTerms, nameKey, queryTerms, splitWords } from './search-terms.js';

/** One search result: the tool, its score, and whether the query named it. */
export interface ToolSearchHit {
  doc: ToolSearchDoc;
  /** BM25 score (after the server lift); exact-name hits score above every other hit. */
  score: number;
  /** `exact`: the query names this tool; `ranked`: BM25. */
  match: 'exact' | 'ranked';
}

/** Options of {@link ToolSearchIndex.search}. */
export interface ToolSearchOptions {
  /** At most this many hits (default 8). */
  limit?: number;
}

export const DEFAULT_SEARCH_LIMIT = 8;
/** Field weights: the name says most about a tool, then its title and server. */
const BOOST = { name: 3, title: 2, server: 1.5, description: 1, params: 0.7 };
/** How much a server named in the query multiplies its tools' scores. */
const SERVER_LIFT = 2.5;
const MAX_NAME_WORDS = 5;

type MiniSearchCtor = typeof MiniSearchType;

function compareHits(a: ToolSearchHit, b: ToolSearchHit): number {
  return b.score - a.score || (a.doc.name < b.doc.name ? -1 : a.doc.name > b.doc.name ? 1 : 0);
}

/** Identifier-shaped: has a separator, a case change or a digit, so it is a name rather than a plain word. */
function looksLikeName(token: string): boolean {
  return /[_.\-/:]/.test(token) || /[a-z][A-Z]/.test(token) || /[A-Za-z][0-9]|[0-9][A-Za-z]/.test(token);
}

/** Query tokens as written (quotes, backticks and trailing punctuation removed). */
function rawTokens(query: string): string[] {
  return query
    .split(/[\s,;()[\]{}<>"'`]+/)
    .map((t) => t.replace(/^[.:!?]+|[.:!?]+$/g, ''))
    .filter((t) => t !== '');
}

/**
 * A BM25 index over a tool catalog, as the agent's `tool_search` and `serve --tool-search` use it:
 * a tool named exactly in the query (`read_file`, `readFile`, `mcp__fs__read_file`, `fs.read_file`)
 * ranks first, a server named in the query lifts its tools, and the same catalog and query always
 * give the same order (ties by name).
 *
 * @example
 * ```ts
 * const index = await ToolSearchIndex.build(tools);
 * for (const hit of index.search('create a github issue', { limit: 5 })) console.log(hit.doc.name, hit.score);
 * ```
 */
export class ToolSearchIndex {
  private constructor(
    private readonly docs: readonly ToolSearchDoc[],
    private readonly mini: MiniSearchType<DocFields>,
    /** nameKey of the model-visible name, the raw name and server+tool → doc ids. */
    private readonly byName: ReadonlyMap<string, number[]>,
    /** nameKey of a server → its doc ids. */
    private readonly byServer: ReadonlyMap<string, number[]>,
  ) {}

  /** Build an index; the search library is loaded on first use, not at start-up. */
  static async build(docs: readonly ToolSearchDoc[]): Promise<ToolSearchIndex> {
    const { default: MiniSearch } = (await import('minisearch')) as { default: MiniSearchCtor };
    return ToolSearchIndex.buildWith(MiniSearch, docs);
  }

  private static buildWith(MiniSearch: MiniSearchCtor, docs: readonly ToolSearchDoc[]): ToolSearchIndex {
    const mini = new MiniSearch<DocFields>({
      fields: ['name', 'server', 'title', 'description', 'params'],
      tokenize: (text) => splitWords(text),
      processTerm: (term) => indexTerms(term),
      searchOptions: {
        processTerm: (term) => queryTerms(term),
        boost: BOOST,
        combineWith: 'OR',
        // Whole terms only: plurals are folded at both ends, and prefix or fuzzy expansion cost 5-20x
        // the time on a 2,000-tool catalog while adding nothing to recall on the query set.
        prefix: false,
        fuzzy: false,
      },
    });
    mini.addAll(docs.map((d, i) => docFields(d, i)));
    const byName = new Map<string, number[]>();
    const byServer = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, id: number) => {
      if (key === '') return;
      const ids = map.get(key);
      if (!ids) map.set(key, [id]);
      else if (!ids.includes(id)) ids.push(id);
    };
    docs.forEach((d, id) => {
      add(byName, nameKey(d.name), id);
      add(byName, nameKey(d.tool), id);
      add(byName, nameKey(`${d.server}${d.tool}`), id);
      add(byServer, nameKey(d.server), id);
    });
    return new ToolSearchIndex(docs, mini, byName, byServer);
  }

  get size(): number {
    return this.docs.length;
  }

  /** Servers named in the query (a word, or a run of words, equal to a server's name). */
  private namedServers(words: string[]): Set<number> {
    const ids = new Set<number>();
    for (let i = 0; i < words.length; i++) {
      for (let n = 1; n <= Math.min(3, words.length - i); n++) {
        for (const id of this.byServer.get(nameKey(words.slice(i, i + n).join(''))) ?? []) ids.add(id);
      }
    }
    return ids;
  }

  /**
   * Tools the query names: an identifier-shaped token (`read_file`, `getTinyImage`,
   * `mcp__fs__read_file`, `fs.read_file`), a run of words spelling a name (`read file`), or the whole
   * query. A plain English word names a tool only when it is the whole query, so "add a comment"
   * does not pin a tool called `add`. In the order the query names them.
   */
  private exactIds(query: string, lifted: Set<number>): number[] {
    const out: number[] = [];
    const push = (ids: number[] | undefined) => {
      if (!ids) return;
      // Several servers may have a tool of that name: a named server's first, then by name.
      const sorted = [...ids].sort((a, b) => Number(lifted.has(b)) - Number(lifted.has(a)) || (this.docs[a]!.name < this.docs[b]!.name ? -1 : 1));
      for (const id of sorted) if (!out.includes(id)) out.push(id);
    };
    push(this.byName.get(nameKey(query)));
    const tokens = rawTokens(query);
    for (const t of tokens) if (looksLikeName(t)) push(this.byName.get(nameKey(t)));
    const words = tokens.flatMap((t) => splitWords(t));
    for (let n = Math.min(MAX_NAME_WORDS, words.length); n >= 2; n--) {
      for (let i = 0; i + n <= words.length; i++) push(this.byName.get(nameKey(words.slice(i, i + n).join(''))));
    }
    return out;
  }

  search(query: string, options: ToolSearchOptions = {}): ToolSearchHit[] {
    const limit = Math.max(1, options.limit ?? DEFAULT_SEARCH_LIMIT);
    if (query.trim() === '' || this.docs.length === 0) return [];
    const lifted = this.namedServers(splitWords(query));
    const exact = this.exactIds(query, lifted);
    const exactSet = new Set(exact);
    const ranked: ToolSearchHit[] = [];
    // MiniSearch answers best first; only the top (and whatever ties the last of it) needs sorting by name.
    const results = this.mini.search(query, lifted.size > 0 ? { boostDocument: (id: number) => (lifted.has(id) ? SERVER_LIFT : 1) } : {});
    let cut = Math.min(results.length, limit + exact.length);
    while (cut > 0 && cut < results.length && results[cut]!.score === results[cut - 1]!.score) cut++;
    for (const r of results.slice(0, cut)) {
      const id = r.id as number;
      if (!exactSet.has(id)) ranked.push({ doc: this.docs[id]!, score: r.score, match: 'ranked' });
    }
    ranked.sort(compareHits);
    // A query that is only a server's name (no other term matched) lists that server's tools.
    if (ranked.length === 0 && exact.length === 0 && lifted.size > 0) {
      for (const id of [...lifted].sort((a, b) => a - b)) ranked.push({ doc: this.docs[id]!, score: 1, match: 'ranked' });
      ranked.sort(compareHits);
    }
    const top = ranked[0]?.score ?? 0;
    const pinned = exact.map((id, i): ToolSearchHit => ({ doc: this.docs[id]!, score: top + exact.length - i, match: 'exact' }));
    return [...pinned, ...ranked].slice(0, limit);
  }
}
