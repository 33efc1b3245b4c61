// The layer table holds in both directions: every import follows an edge the table allows (the lint
// rule checks each import as it is written), and every edge the table allows is used, so the table
// says what the code does. No files import each other in a loop at run time: a module evaluated
// half-way (a class read before its file finished loading) fails only in some load orders.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, layerOf, runtimeCycles } from './import-graph.js';

const lint = pathToFileURL(path.resolve(import.meta.dirname, '..', '..', 'eslint', 'layer-imports.js')).href;

describe('the layers of src/', () => {
  const graph = importGraph();

  it('use every edge the layer table allows, and no other', async () => {
    const { LAYER_TABLE } = (await import(lint)) as { LAYER_TABLE: Record<string, string[]> };
    const used: Record<string, Set<string>> = Object.fromEntries(Object.keys(LAYER_TABLE).map((l) => [l, new Set<string>()]));
    for (const [file, imports] of graph) {
      const from = layerOf(file);
      for (const { to } of imports) if (layerOf(to) !== from) used[from]?.add(layerOf(to));
    }
    const sorted = (table: Record<string, Iterable<string>>) => Object.fromEntries(Object.entries(table).map(([l, to]) => [l, [...to].sort()]));
    expect(sorted(used)).toEqual(sorted(LAYER_TABLE));
  });

  it('have no import cycle at run time (type-only and dynamic imports aside)', () => {
    expect(runtimeCycles(graph)).toEqual([]);
  });
});
