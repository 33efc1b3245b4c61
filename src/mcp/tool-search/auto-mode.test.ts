// When tool search turns on, how tokens are counted, what a model is told about the servers, and
// that the cache builds an index once per catalog.
import { describe, expect, it } from 'vitest';
import { decideToolSearch } from './auto-mode.js';
import { ToolSearchCache } from './search-cache.js';
import { describeServers } from './server-summary.js';
import { countTokens, knownContextWindow } from './token-count.js';

const schemas = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ name: `mcp__srv__tool_${i}`, description: `Does thing number ${i} with the given input.`, parameters: { type: 'object', properties: { input: { type: 'string' } } } })));

describe('tool search: auto mode and token counts', () => {
  it('counts OpenAI models with their tokenizer and estimates others', async () => {
    const exact = await countTokens('Read the complete contents of a file as text.', 'gpt-5-codex');
    expect(exact).toEqual({ tokens: 10, exact: true });
    expect(await countTokens('12345678', 'llama3:8b')).toEqual({ tokens: 2, exact: false });
    expect(await knownContextWindow('gpt-5-codex')).toBe(400_000);
    expect(await knownContextWindow('gpt-oss:20b')).toBe(131_072);
    expect(await knownContextWindow('mock-model')).toBeNull();
  });

  it('on and off decide alone; auto compares the schemas with 10% of the window', async () => {
    expect((await decideToolSearch('on', '[]', 'x', null)).on).toBe(true);
    expect((await decideToolSearch('off', schemas(5000), 'x', 1000)).on).toBe(false);
    const small = await decideToolSearch('auto', schemas(10), 'gpt-5', null);
    expect(small).toMatchObject({ on: false, contextWindow: 400_000, windowSource: 'known' });
    const big = await decideToolSearch('auto', schemas(10), 'gpt-5', 2000);
    expect(big).toMatchObject({ on: true, contextWindow: 2000, windowSource: 'configured', schemaTokens: { exact: true } });
    expect(big.schemaTokens!.tokens).toBeGreaterThan(200);
    expect(await decideToolSearch('auto', schemas(10), 'mock-model', null)).toMatchObject({ on: false, contextWindow: 128_000, windowSource: 'assumed' });
  });

  it('describes each server in one line', () => {
    const d = (server: string, tool: string) => ({ name: `mcp__${server}__${tool}`, server, tool, description: '', inputSchema: {} });
    expect(describeServers([d('fs', 'write_file'), d('fs', 'read_file'), d('everything', 'echo')])).toBe('- everything (1 tool): echo\n- fs (2 tools): read_file, write_file');
    const many = Array.from({ length: 80 }, (_, i) => d('big', `tool_number_${String(i).padStart(2, '0')}`));
    const line = describeServers(many);
    expect(line.startsWith('- big (80 tools): tool_number_00, ')).toBe(true);
    expect(line.endsWith(', ...')).toBe(true);
    expect(line.length).toBeLessThanOrEqual(170);
  });

  it('builds an index once per catalog and again when a tool changes', async () => {
    const cache = new ToolSearchCache();
    const docs = [{ name: 'mcp__a__x', server: 'a', tool: 'x', description: 'first', inputSchema: {} }];
    const one = await cache.index(docs);
    expect(await cache.index([...docs])).toBe(one);
    const changed = await cache.index([{ ...docs[0]!, description: 'second' }]);
    expect(changed).not.toBe(one);
    expect(changed.search('second')[0]!.doc.description).toBe('second');
  });
});
