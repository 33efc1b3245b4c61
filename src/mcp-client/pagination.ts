// Follows nextCursor through a paginated list, refusing lists that never end (Codex's limits and texts).
// On a 2026-07-28 connection the SDK walks tools/list itself, because it also applies the revision's
// rules to what it returns (tools with invalid x-mcp-header declarations are left out).
import type { Client, RequestOptions, Tool } from '@modelcontextprotocol/client';
import { MAX_TOOL_LIST_ITEMS, MAX_TOOL_LIST_PAGES } from './defaults.js';
import { McpClientError } from './errors.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string | undefined;
}

export interface PageLimits {
  maxPages?: number;
  maxItems?: number;
}

/** Codex says "repeated cursor" for tools and "duplicate cursor" for resources; keep both texts. */
function repeatedCursorText(method: string): string {
  return method.startsWith('resources/') ? `${method} returned duplicate cursor` : `${method} returned a repeated cursor`;
}

export async function collectPages<T>(method: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>, limits: PageLimits = {}): Promise<T[]> {
  const maxPages = limits.maxPages ?? MAX_TOOL_LIST_PAGES;
  const maxItems = limits.maxItems ?? MAX_TOOL_LIST_ITEMS;
  const seen = new Set<string>();
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; ; ) {
    const page = await fetchPage(cursor);
    pages += 1;
    items.push(...page.items);
    if (items.length > maxItems) throw new McpClientError('pagination', `${method} exceeded item limit`);
    const next = page.nextCursor;
    if (next === undefined || next === null) return items;
    if (seen.has(next) || next === cursor) throw new McpClientError('pagination', repeatedCursorText(method));
    if (pages >= maxPages) throw new McpClientError('pagination', `${method} exceeded page limit`);
    seen.add(next);
    cursor = next;
  }
}

/**
 * Every tool of a 2026-07-28 server, through the SDK's aggregating listTools (its page limit is
 * set to ours in sdk-client.ts); never from the SDK's response cache, which the catalog does not use.
 */
export async function listModernTools(client: Client, options: RequestOptions): Promise<Tool[]> {
  const { tools } = await client.listTools(undefined, { ...options, cacheMode: 'bypass' });
  if (tools.length > MAX_TOOL_LIST_ITEMS) throw new McpClientError('pagination', 'tools/list exceeded item limit');
  return tools;
}
