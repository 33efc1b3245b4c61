// Tool-search benchmarks (issue 17): ranking quality on the committed query set (recall@1,
// recall@5, MRR, exact-name queries at rank 1), search latency over 2,000+ tools, and how much the
// first model request shrinks with 1,000 MCP tools when they are deferred behind tool_search,
// against tool_search = "off" (bytes, and o200k tokens). Runs in-process on the real index and the
// agent's real ToolRegistry; the catalog is the query set's (bench/fixtures/tool-search).
import { builtinTools, DEFAULT_BASE_INSTRUCTIONS, ToolRegistry, type McpToolSource, type ToolSpec } from '../src/core/index.js';
import { countOpenAITokens, ToolSearchIndex, type ToolSearchDoc } from '../src/mcp/index.js';
import { median, row, type BenchContext, type BenchRow } from './bench-types.js';
import { generatedCatalog } from './fixtures/tool-search/generated-catalog.js';
import { loadQueries, queryCatalog, scoreQueries } from './fixtures/tool-search/query-set.js';

const ROUNDS = 20;

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** A catalog served from memory through the agent's McpToolSource seam (no server needed to size a request). */
function catalogSource(docs: readonly ToolSearchDoc[]): McpToolSource {
  const none = async () => ({ items: [] });
  return {
    serverNames: () => [...new Set(docs.map((d) => d.server))],
    listTools: async () => docs.map((d) => ({ name: d.name, server: d.server, tool: d.tool, description: d.description, inputSchema: d.inputSchema })),
    callTool: async () => ({ content: [] }),
    listResources: none,
    listAllResources: async () => new Map(),
    listResourceTemplates: none,
    listAllResourceTemplates: async () => new Map(),
    readResource: async () => ({ contents: [] }),
  };
}

/** The first request's text as the model gets it: instructions, the user's message and the tools. */
async function firstRequest(docs: readonly ToolSearchDoc[], mode: 'on' | 'off'): Promise<{ bytes: number; tokens: number; toolBytes: number; tools: number }> {
  const registry = new ToolRegistry(builtinTools({ env: {} }), catalogSource(docs));
  const turn = await registry.forRequest({
    signal: AbortSignal.timeout(60_000),
    elicit: null,
    toolSearch: { settings: { mode, model: 'gpt-5-codex', contextWindow: null, alwaysLoaded: [] }, history: [] },
  });
  const tools: ToolSpec[] = turn.specs;
  const body = JSON.stringify({ instructions: DEFAULT_BASE_INSTRUCTIONS, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Open a GitHub issue for the failing test' }] }], tools });
  return { bytes: Buffer.byteLength(body), tokens: await countOpenAITokens(body), toolBytes: Buffer.byteLength(JSON.stringify(tools)), tools: tools.length };
}

async function quality(ctx: BenchContext): Promise<BenchRow[]> {
  const catalog = queryCatalog();
  const score = scoreQueries(await ToolSearchIndex.build(catalog), loadQueries());
  for (const m of score.misses) ctx.log(`rank ${m.rank ?? '>10'}: ${JSON.stringify(m.case.query)} (want ${m.case.expect[0]})`);
  const notes = `${score.queries} queries over ${catalog.length} tools (server-everything, server-filesystem, generated)`;
  return [
    row('query set: recall@1', score.recallAt1, 'ratio', { notes }),
    row('query set: recall@5', score.recallAt5, 'ratio', { notes: `${notes}; goal ≥ 0.95` }),
    row('query set: MRR', score.mrr, 'ratio', { notes }),
    row('query set: exact-name queries at rank 1', score.exactAtRank1, 'queries', { notes: `of ${score.exactQueries}; goal: all` }),
  ];
}

async function latency(ctx: BenchContext): Promise<BenchRow[]> {
  const catalog = queryCatalog(2);
  const started = performance.now();
  const index = await ToolSearchIndex.build(catalog);
  const buildMs = performance.now() - started;
  const queries = loadQueries().map((q) => q.query);
  for (const q of queries) index.search(q); // warm-up
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of queries) {
      const t = performance.now();
      index.search(q);
      times.push(performance.now() - t);
    }
  }
  ctx.log(`search over ${catalog.length} tools: p50 ${median(times).toFixed(3)} ms, p95 ${percentile(times, 95).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`);
  return [
    row(`search p50, ${catalog.length} tools`, median(times), 'ms', { notes: `p95 ${percentile(times, 95).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms; ${times.length} searches; goal < 2 ms` }),
    row(`index build, ${catalog.length} tools`, buildMs, 'ms', { notes: 'once per catalog change (MiniSearch load included)' }),
  ];
}

async function shrink(ctx: BenchContext): Promise<BenchRow[]> {
  const docs = generatedCatalog().slice(0, 1000);
  const off = await firstRequest(docs, 'off');
  const on = await firstRequest(docs, 'on');
  ctx.log(`first request, 1,000 MCP tools: off ${off.bytes} B / ${off.tokens} tokens (${off.tools} tools); on ${on.bytes} B / ${on.tokens} tokens (${on.tools} tools)`);
  const pct = (a: number, b: number) => (1 - a / b) * 100;
  return [
    row('first request with 1,000 MCP tools: bytes', on.bytes, 'B', { baseline: off.bytes, notes: `shrink ${pct(on.bytes, off.bytes).toFixed(1)}% vs tool_search = "off" (tools alone: ${on.toolBytes} vs ${off.toolBytes} B); goal ≥ 95%` }),
    row('first request with 1,000 MCP tools: tokens', on.tokens, 'tokens', { baseline: off.tokens, notes: `shrink ${pct(on.tokens, off.tokens).toFixed(1)}% (o200k_base, instructions + message + tools); goal ≥ 95%` }),
  ];
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  return [...(await quality(ctx)), ...(await latency(ctx)), ...(await shrink(ctx))];
}
