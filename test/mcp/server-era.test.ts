// The recorded protocol era: which verdicts a warm start adopts, and how they survive the snapshot file.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { SnapshotStore } from '../../src/mcp/index.js';
import { LEGACY_VERDICT_MAX_AGE_MS, priorFor, type ServerEra } from '../../src/mcp/server-era.js';
import { nullLogger } from '../../src/util/index.js';

const discover = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } as never;
const modern: ServerEra = { protocol: '2026-07-28', discovery: { kind: 'modern', discover }, probedAt: new Date(0).toISOString() };
const legacyAt = (ms: number): ServerEra => ({ protocol: '2025-11-25', discovery: { kind: 'legacy' }, probedAt: new Date(ms).toISOString() });

describe('priorFor', () => {
  it('adopts a 2026 verdict however old (a stale one fails loudly and is dropped)', () => {
    expect(priorFor(modern)).toEqual({ kind: 'modern', discover });
  });

  it('adopts a 2025 verdict only while it is young: an upgraded server still answers initialize', () => {
    const now = Date.now();
    expect(priorFor(legacyAt(now - 1000), now)).toEqual({ kind: 'legacy' });
    expect(priorFor(legacyAt(now - LEGACY_VERDICT_MAX_AGE_MS - 1), now)).toBeUndefined();
  });

  it('has nothing to adopt without a record', () => {
    expect(priorFor(undefined)).toBeUndefined();
    expect(priorFor({ protocol: undefined, discovery: undefined, probedAt: new Date().toISOString() })).toBeUndefined();
  });
});

describe('the snapshot records the era', () => {
  const server = parseMcpServerConfig('docs', { command: 'docs-server' }).config;
  const tools = [{ name: 'search', inputSchema: { type: 'object' as const } }];

  it('round-trips it, and reads snapshots written before it existed as having none', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-era-'));
    const store = new SnapshotStore(dir, nullLogger);
    await store.save(server, tools, modern);
    expect((await store.load(server))?.era).toEqual(modern);
    const file = path.join(dir, (await readdir(dir))[0]!);
    const onDisk = JSON.parse(await readFile(file, 'utf8'));
    expect(onDisk.era).toEqual({ protocol: '2026-07-28', discovery: { kind: 'modern', discover }, probed_at: modern.probedAt });

    await writeFile(file, JSON.stringify({ ...onDisk, era: undefined }));
    const old = await store.load(server);
    expect(old?.tools).toEqual(tools);
    expect(old?.era).toBeUndefined();

    await writeFile(file, JSON.stringify({ ...onDisk, era: { protocol: 1, discovery: { kind: 'modern' }, probed_at: 'yesterday' } }));
    expect((await store.load(server))?.era).toBeUndefined();
  });
});
