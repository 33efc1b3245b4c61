import { describe, expect, it } from 'vitest';
import { McpClientError } from './errors.js';
import { collectPages } from './pagination.js';

function pages(cursors: (string | undefined)[]) {
  return async (cursor: string | undefined) => {
    const index = cursor === undefined ? 0 : Number(cursor.replace('c', ''));
    return { items: [index], nextCursor: cursors[index] };
  };
}

describe('collectPages', () => {
  it('collects until there is no nextCursor', async () => {
    await expect(collectPages('tools/list', pages(['c1', 'c2', undefined]))).resolves.toEqual([0, 1, 2]);
  });

  it('names a repeated cursor the way Codex does for each list', async () => {
    await expect(collectPages('tools/list', pages(['c1', 'c1']))).rejects.toThrow('tools/list returned a repeated cursor');
    await expect(collectPages('resources/list', pages(['c1', 'c0', 'c1']))).rejects.toThrow('resources/list returned duplicate cursor');
    await expect(collectPages('resources/templates/list', pages(['c1', 'c1']))).rejects.toThrow('resources/templates/list returned duplicate cursor');
  });

  it('enforces the page and item limits', async () => {
    const endless = async (cursor: string | undefined) => ({ items: [1, 2], nextCursor: `c${Number((cursor ?? 'c0').slice(1)) + 1}` });
    await expect(collectPages('tools/list', endless, { maxPages: 3 })).rejects.toThrow('tools/list exceeded page limit');
    const err = await collectPages('tools/list', endless, { maxItems: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpClientError);
    expect((err as McpClientError).code).toBe('pagination');
    expect((err as Error).message).toBe('tools/list exceeded item limit');
  });
});
