// Ranking rules of the tool search index: exact and qualified names first, identifiers split on
// separators and camelCase, a named server lifts its tools, plain words do not pin, and the same
// catalog always gives the same order whatever order its tools came in.
import { describe, expect, it } from 'vitest';
import type { ToolSearchDoc } from './search-doc.js';
import { searchTerms, splitWords } from './search-terms.js';
import { ToolSearchIndex } from './tool-search-index.js';

const doc = (server: string, tool: string, description: string, params: Record<string, string> = {}): ToolSearchDoc => ({
  name: `mcp__${server}__${tool}`,
  server,
  tool,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(Object.entries(params).map(([k, d]) => [k, { type: 'string', description: d }])) },
});

const CATALOG: ToolSearchDoc[] = [
  doc('fs', 'read_file', 'Read the complete contents of a file.', { path: 'Path of the file' }),
  doc('fs', 'write_file', 'Create or overwrite a file with new content.', { path: 'Path', content: 'Text to write' }),
  doc('fs', 'list_directory', 'List files and folders in a directory.', { path: 'Directory path' }),
  doc('github', 'getPullRequest', 'Get one pull request of a repository.', { repo: 'owner/name' }),
  doc('github', 'create_issue', 'Open a new issue in a repository.', { title: 'Issue title' }),
  doc('gitlab', 'create_issue', 'Create an issue in a GitLab project.', { title: 'Issue title' }),
  doc('everything', 'add', 'Adds two numbers.', { a: 'First number', b: 'Second number' }),
  doc('everything', 'get-tiny-image', 'Returns a tiny MCP logo image.'),
  doc('slack', 'post_message', 'Post a message to a channel; can add a comment thread.', { channel: 'Channel ID' }),
];

const names = (hits: { doc: ToolSearchDoc }[]) => hits.map((h) => h.doc.name);

describe('search terms', () => {
  it('split on _, -, . and camelCase, fold plurals and drop filler words', () => {
    expect(splitWords('getPullRequest')).toEqual(['get', 'Pull', 'Request']);
    expect(splitWords('HTTPServer.list_items-v2')).toEqual(['HTTP', 'Server', 'list', 'items', 'v', '2']);
    expect(searchTerms('Lists the directories of a repo')).toEqual(['list', 'directory', 'repo']);
  });
});

describe('ToolSearchIndex', () => {
  it('ranks a tool named exactly first, however it is written', async () => {
    const index = await ToolSearchIndex.build(CATALOG);
    for (const q of ['read_file', 'please call read_file now', 'readFile', 'mcp__fs__read_file', 'fs.read_file', 'fs/read_file', 'read file']) {
      const hits = index.search(q);
      expect([q, hits[0]!.doc.name, hits[0]!.match]).toEqual([q, 'mcp__fs__read_file', 'exact']);
    }
    expect(names(index.search('use get-tiny-image'))[0]).toBe('mcp__everything__get-tiny-image');
    expect(names(index.search('get pull request'))[0]).toBe('mcp__github__getPullRequest');
  });

  it('ranks exact hits above every other hit, in the order the query names them', async () => {
    const index = await ToolSearchIndex.build(CATALOG);
    const hits = index.search('write_file then read_file');
    expect(names(hits).slice(0, 2)).toEqual(['mcp__fs__write_file', 'mcp__fs__read_file']);
    expect(hits[1]!.score).toBeGreaterThan(hits[2]!.score);
  });

  it('pins a plain word only when it is the whole query', async () => {
    const index = await ToolSearchIndex.build(CATALOG);
    expect(index.search('add')[0]!.match).toBe('exact');
    const hits = index.search('add a comment to the thread');
    expect(hits[0]!.doc.name).toBe('mcp__slack__post_message');
    expect(hits.every((h) => h.match === 'ranked')).toBe(true);
  });

  it('lifts the tools of a server named in the query', async () => {
    const index = await ToolSearchIndex.build(CATALOG);
    expect(names(index.search('create an issue in gitlab'))[0]).toBe('mcp__gitlab__create_issue');
    expect(names(index.search('create an issue on github'))[0]).toBe('mcp__github__create_issue');
    // The same raw name on two servers: the named server's tool comes first.
    expect(names(index.search('gitlab create_issue')).slice(0, 2)).toEqual(['mcp__gitlab__create_issue', 'mcp__github__create_issue']);
    // A query that is only a server name lists its tools.
    expect(names(index.search('everything')).sort()).toEqual(['mcp__everything__add', 'mcp__everything__get-tiny-image']);
  });

  it('matches parameter names and descriptions', async () => {
    const index = await ToolSearchIndex.build(CATALOG);
    expect(names(index.search('channel id'))[0]).toBe('mcp__slack__post_message');
  });

  it('is deterministic: the same results whatever order the catalog came in, and ties broken by name', async () => {
    const a = await ToolSearchIndex.build(CATALOG);
    const b = await ToolSearchIndex.build([...CATALOG].reverse());
    for (const q of ['issue', 'file', 'create', 'message to channel', 'gitlab']) {
      const first = a.search(q, { limit: 20 });
      expect(a.search(q, { limit: 20 })).toEqual(first);
      expect(b.search(q, { limit: 20 }).map((h) => [h.doc.name, h.score])).toEqual(first.map((h) => [h.doc.name, h.score]));
    }
    const tie = await ToolSearchIndex.build([doc('b', 'x_tool', 'same words'), doc('a', 'x_tool', 'same words')]);
    expect(names(tie.search('same words'))).toEqual(['mcp__a__x_tool', 'mcp__b__x_tool']);
  });

  it('honours the limit and answers an empty query with nothing', async () => {
    const index = await ToolSearchIndex.build(CATALOG);
    expect(index.search('file', { limit: 2 })).toHaveLength(2);
    expect(index.search('   ')).toEqual([]);
    expect(index.search('zzzz-nothing-like-this')).toEqual([]);
  });
});
