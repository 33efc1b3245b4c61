import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../config/index.js';
import { nullLogger } from '../util/index.js';
import { SnapshotStore, snapshotConfigHash, snapshotIsFresh } from './snapshot-store.js';

const server = (args: string[]) => parseMcpServerConfig('docs', { command: 'docs-server', args }).config;
const tools = [{ name: 'search', inputSchema: { type: 'object' as const } }];

async function store() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-snap-'));
  return { dir, store: new SnapshotStore(dir, nullLogger) };
}

describe('SnapshotStore', () => {
  it('round-trips a tool list for the same config, with mode 0600', async () => {
    const { dir, store: s } = await store();
    s.save(server(['a']), tools);
    expect((await s.load(server(['a'])))?.tools).toEqual(tools);
    const [file] = await readdir(dir);
    expect((await stat(path.join(dir, file!))).mode & 0o777).toBe(0o600);
  });

  it('ignores the snapshot of a different config and removes it on save', async () => {
    const { dir, store: s } = await store();
    s.save(server(['a']), tools);
    expect(await s.load(server(['b']))).toBeUndefined();
    s.save(server(['b']), tools);
    expect(await readdir(dir)).toEqual([`docs-${snapshotConfigHash(server(['b']))}.json`]);
    // Another process's store (a later run): what the folder held when it first saved.
    new SnapshotStore(dir, nullLogger).save(server(['c']), tools);
    expect(await readdir(dir)).toEqual([`docs-${snapshotConfigHash(server(['c']))}.json`]);
  });

  it('a save that fails says so and loses nothing: the next one makes the folder again', async () => {
    const { dir } = await store();
    const warned: string[] = [];
    const s = new SnapshotStore(dir, { ...nullLogger, warn: (message: string) => void warned.push(message) });
    s.save(server(['a']), tools);
    await rm(dir, { recursive: true }); // the cache cleared while the manager runs
    await writeFile(dir, 'not a folder');
    s.save(server(['a']), [{ ...tools[0]!, description: 'changed' }]);
    expect(warned).toEqual(['could not save MCP tool snapshot']);
    await rm(dir);
    s.save(server(['a']), tools);
    expect((await s.load(server(['a'])))?.tools).toEqual(tools);
  });

  it('ignores corrupt files and wrong schema versions without throwing', async () => {
    const { dir, store: s } = await store();
    const file = path.join(dir, `docs-${snapshotConfigHash(server(['a']))}.json`);
    await writeFile(file, '{not json');
    expect(await s.load(server(['a']))).toBeUndefined();
    s.save(server(['a']), tools);
    const data = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...data, schema_version: 999 }));
    expect(await s.load(server(['a']))).toBeUndefined();
    await writeFile(file, JSON.stringify({ ...data, tools: [{ nope: 1 }] }));
    expect(await s.load(server(['a']))).toBeUndefined();
  });

  it('keeps a 2026-07-28 cache hint; a malformed one is dropped, the snapshot kept', async () => {
    const { dir, store: s } = await store();
    const cache = { ttl_ms: 60_000, scope: 'public' as const, listed_at: '2026-12-01T10:00:00.000Z' };
    s.save(server(['a']), tools, undefined, cache);
    expect((await s.load(server(['a'])))?.cache).toEqual(cache);
    const file = path.join(dir, `docs-${snapshotConfigHash(server(['a']))}.json`);
    const data = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...data, cache: { ttl_ms: -1, listed_at: 'yesterday' } }));
    const loaded = await s.load(server(['a']));
    expect(loaded?.tools).toEqual(tools);
    expect(loaded?.cache).toBeUndefined();
  });

  it('does not write again a list, era and hint the file holds (as read there or written); writes a changed one', async () => {
    const { dir, store: s } = await store();
    const era = { protocol: '2025-11-25', discovery: { kind: 'legacy' as const }, probedAt: '2026-12-01T10:00:00.000Z' };
    s.save(server(['a']), tools, era);
    const file = path.join(dir, `docs-${snapshotConfigHash(server(['a']))}.json`);
    const written = await readFile(file, 'utf8');
    // Every write is a new file renamed over the old one: a new inode.
    const inode = async () => (await stat(file)).ino;
    const first = await inode();
    expect(JSON.parse(written)).toMatchObject({ schema_version: 1, server: 'docs', tools, era: { protocol: '2025-11-25', probed_at: era.probedAt } });
    // The same list again (a restart after stop_after_idle_sec, say): what this store wrote is there.
    s.save(server(['a']), structuredClone(tools), { ...era });
    expect(await inode()).toBe(first);

    // A later run: the same list comes back live (as new objects) with the era it was started by.
    const later = new SnapshotStore(dir, nullLogger);
    expect((await later.load(server(['a'])))?.tools).toEqual(tools);
    later.save(server(['a']), structuredClone(tools), { ...era });
    expect(await readFile(file, 'utf8')).toBe(written);
    expect(await inode()).toBe(first);

    // A changed tool, a re-probed era, or a cache hint (each against the list before): written.
    for (const change of [
      () => later.save(server(['a']), [{ ...tools[0]!, description: 'new' }], era),
      () => later.save(server(['a']), tools, { ...era, probedAt: '2026-12-02T10:00:00.000Z' }),
      () => later.save(server(['a']), tools, era, { ttl_ms: 60_000, scope: 'public', listed_at: '2026-12-02T10:00:00.000Z' }),
    ]) {
      later.save(server(['a']), tools, era);
      const before = await inode();
      change();
      expect(await inode()).not.toBe(before);
    }
  });

  it('a snapshot is fresh without a hint, and within its TTL only', () => {
    const listed = Date.parse('2026-12-01T10:00:00.000Z');
    const cache = { ttl_ms: 60_000, scope: 'private' as const, listed_at: new Date(listed).toISOString() };
    expect(snapshotIsFresh({}, listed + 10 * 86_400_000)).toBe(true);
    expect(snapshotIsFresh({ cache }, listed + 59_999)).toBe(true);
    expect(snapshotIsFresh({ cache }, listed + 60_000)).toBe(false);
    expect(snapshotIsFresh({ cache: { ...cache, ttl_ms: 0 } }, listed)).toBe(false);
  });
});
