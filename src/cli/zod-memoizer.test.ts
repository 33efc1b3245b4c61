import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ACYCLIC_MEMOIZER, parseWithoutCycles } from './zod-memoizer.js';

const run = promisify(execFile);
const MODULE = new URL('./zod-memoizer.ts', import.meta.url).href;

/** Runs `body` in a fresh Node process (zod not loaded yet), after `before`; returns what it prints as JSON. */
async function fresh(before: string, body: string): Promise<Record<string, unknown>> {
  const script = `import { ACYCLIC_MEMOIZER, parseWithoutCycles } from ${JSON.stringify(MODULE)};\n${before}\nconst { z } = await import('zod');\nconst { parseJSONRPCMessage } = await import('@modelcontextprotocol/server');\nconst { isDeepStrictEqual: same } = await import('node:util');\n${body}`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() });
  return JSON.parse(stdout) as Record<string, unknown>;
}

const PARSE = `
const message = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { nested: { list: [1, { deep: 'x' }] } }, _meta: { progressToken: 3 } } };
const Tree = z.lazy(() => z.object({ name: z.string(), children: z.array(Tree) }));
const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] };
const cycle = { name: 'loop', children: [] };
cycle.children.push(cycle);
let cyclic;
try { cyclic = Tree.safeParse(cycle).success ? 'parsed' : 'refused'; } catch (err) { cyclic = err.constructor.name; }
console.log(JSON.stringify({
  ours: z.config().memoizer === ACYCLIC_MEMOIZER,
  message: same(parseJSONRPCMessage(message), message),
  tree: same(Tree.parse(tree), tree),
  bad: Tree.safeParse({ name: 'a', children: [{ name: 1, children: [] }] }).success,
  cyclic,
}));`;

describe('parseWithoutCycles', () => {
  it('sets the memoizer once, and leaves one that was set before', () => {
    const empty: Record<string, unknown> = {};
    expect(parseWithoutCycles(empty)).toBe(true);
    expect(empty).toEqual({ __zod_globalConfig: { memoizer: ACYCLIC_MEMOIZER } });
    const theirs = { attach() {}, guard() {}, alloc: <T>(_i: unknown, _p: unknown, e: T) => e };
    const set = { __zod_globalConfig: { memoizer: theirs, jitless: true } };
    expect(parseWithoutCycles(set)).toBe(false);
    expect(set.__zod_globalConfig.memoizer).toBe(theirs);
  });

  it('is the memoizer zod and the MCP SDK then parse with: what JSON can hold parses as before, a cycle overflows the stack', async () => {
    expect(await fresh('parseWithoutCycles();', PARSE)).toEqual({ ours: true, message: true, tree: true, bad: false, cyclic: 'RangeError' });
  });

  it('is not set where the CLI did not set it (zod keeps its own, which follows a cycle)', async () => {
    expect(await fresh('', PARSE)).toEqual({ ours: false, message: true, tree: true, bad: false, cyclic: 'parsed' });
  });
});
