// Follows nextCursor through a paginated list, refusing lists that never end (Codex's limits and texts).
// On a 2026-07-28 connection the SDK walks tools/list itself, because it also applies the revision's
// rules to what it returns (tools with invalid x-mcp-header declarations are left out).
import type { CacheScope, Client, RequestOptions, Tool } from '@modelcontextprotocol/client';
import { MAX_CACHE_TTL_MS } from '@modelcontextprotocol/client';
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

/** How long a 2026-07-28 list result stays fresh, and who may share it (`ttlMs`, `cacheScope`). */
export interface ListCacheHint {
  /** 0 is "stale at once"; capped at the SDK's 24 hours. */
  ttlMs: number;
  scope: CacheScope;
}

/** The cache hint of a list result; undefined without `ttlMs` (2025 servers), so nothing changes for them. */
export function cacheHintOf(result: unknown): ListCacheHint | undefined {
  const body = result as { ttlMs?: unknown; cacheScope?: unknown } | undefined;
  if (typeof body?.ttlMs !== 'number' || !Number.isFinite(body.ttlMs)) return undefined;
  return { ttlMs: Math.min(Math.max(0, body.ttlMs), MAX_CACHE_TTL_MS), scope: body.cacheScope === 'public' ? 'public' : 'private' };
}

/**
 * Every tool of a 2026-07-28 server, through the SDK's aggregating listTools (its page limit is
 * set to ours in sdk-client.ts), with the result's cache hint; never from the SDK's response cache:
 * the catalog keeps the list and decides itself when to read it again.
 */
export async function listModernTools(client: Client, options: RequestOptions): Promise<{ tools: Tool[]; cache: ListCacheHint | undefined }> {
  const result = await client.listTools(undefined, { ...options, cacheMode: 'bypass' });
  if (result.tools.length > MAX_TOOL_LIST_ITEMS) throw new McpClientError('pagination', 'tools/list exceeded item limit');
  return { tools: result.tools, cache: cacheHintOf(result) };
}

/** An aggregated 2026-07-28 list past the item limit fails as collectPages would have. */
export function checkItemLimit<T>(method: string, items: T[]): T[] {
  if (items.length > MAX_TOOL_LIST_ITEMS) throw new McpClientError('pagination', `${method} exceeded item limit`);
  return items;
}
