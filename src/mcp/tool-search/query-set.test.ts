// The committed query set (bench/fixtures/tool-search) against the index: the goals hold —
// recall@5 at least 0.95 and every exact-name query at rank 1 — and every expected tool exists.
import { describe, expect, it } from 'vitest';
import { loadQueries, queryCatalog, scoreQueries } from '../../../bench/fixtures/tool-search/query-set.js';
import { ToolSearchIndex } from './tool-search-index.js';

describe('tool search on the committed query set', () => {
  it('has at least 100 queries over at least 1,000 tools, each expecting tools that exist', () => {
    const names = new Set(queryCatalog().map((d) => d.name));
    const queries = loadQueries();
    expect(names.size).toBeGreaterThanOrEqual(1000);
    expect(queries.length).toBeGreaterThanOrEqual(100);
    expect(queries.flatMap((q) => q.expect.filter((e) => !names.has(e)).map((e) => `${q.query} -> ${e}`))).toEqual([]);
  });

  it('meets the goals: recall@5 >= 0.95, every exact-name query at rank 1', async () => {
    const score = scoreQueries(await ToolSearchIndex.build(queryCatalog()), loadQueries());
    const misses = score.misses.map((m) => `${m.rank ?? '-'} ${m.case.kind} ${JSON.stringify(m.case.query)} want ${m.case.expect[0]} got ${m.top.slice(0, 3).join(', ')}`);
    console.log(`recall@1 ${score.recallAt1.toFixed(3)} recall@5 ${score.recallAt5.toFixed(3)} MRR ${score.mrr.toFixed(3)}\n${misses.join('\n')}`);
    expect(score.exactAtRank1, misses.filter((m) => m.includes(' exact ')).join('\n')).toBe(score.exactQueries);
    expect(score.recallAt5).toBeGreaterThanOrEqual(0.95);
  });
});
