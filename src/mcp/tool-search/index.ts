// Tool search: a BM25 index over an MCP catalog for agents and clients that cannot take every tool's
// schema at once (the agent's `tool_search`, the gateway's `search_tools`, `mcp tools --search`).
// Nothing here loads its libraries (MiniSearch, the tokenizer) until it is first used.
export type { ToolSearchDoc } from './search-doc.js';
export { ToolSearchIndex, DEFAULT_SEARCH_LIMIT, type ToolSearchHit, type ToolSearchOptions } from './tool-search-index.js';
export { ToolSearchCache } from './search-cache.js';
export { describeServers } from './server-summary.js';
export { searchTerms, splitWords } from './search-terms.js';
export { countTokens, countOpenAITokens, estimateTokens, knownContextWindow, type TokenCount } from './token-count.js';
export { decideToolSearch, AUTO_SHARE, ASSUMED_CONTEXT_WINDOW, type AutoDecision, type ToolSearchMode } from './auto-mode.js';
