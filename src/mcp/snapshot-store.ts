// Startup snapshots: each server's last live tool list on disk, so a warm start can answer at once,
// and the protocol revision it negotiated, so a warm start connects without probing for it again.
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import { stableJson, textHash64, writeFileAtomic, type Logger } from '../util/index.js';
import { parseServerEra, serializeServerEra, type ServerEra } from './server-era.js';

export const SNAPSHOT_SCHEMA_VERSION = 1;

export interface ToolSnapshot {
  schema_version: number;
  server: string;
  config_hash: string;
  saved_at: string;
  tools: Tool[];
  /** Absent in snapshots written before the 2026-07-28 revision was spoken. */
  era?: ServerEra;
  /** The 2026-07-28 cache hint of the list: fresh until `listed_at + ttl_ms`. Absent: fresh for ever (2025). */
  cache?: SnapshotCache;
}

export interface SnapshotCache {
  ttl_ms: number;
  scope: 'public' | 'private';
  /** When the live list was read. */
  listed_at: string;
}

/** A recorded cache hint read back from disk; anything malformed is none (the snapshot stays usable). */
function parseSnapshotCache(value: unknown): SnapshotCache | undefined {
  const v = value as Partial<SnapshotCache> | undefined;
  if (!v || typeof v !== 'object' || typeof v.ttl_ms !== 'number' || !(v.ttl_ms >= 0) || typeof v.listed_at !== 'string' || Number.isNaN(Date.parse(v.listed_at))) return undefined;
  return { ttl_ms: v.ttl_ms, scope: v.scope === 'public' ? 'public' : 'private', listed_at: v.listed_at };
}

/** Whether a snapshot still stands for the server's list: always without a hint, else within its TTL. */
export function snapshotIsFresh(snapshot: Pick<ToolSnapshot, 'cache'>, now = Date.now()): boolean {
  const cache = snapshot.cache;
  return !cache || now < Date.parse(cache.listed_at) + cache.ttl_ms;
}

/**
 * What a server's tool list depends on: how it is reached, not its filters or timeouts. (Until
 * 2026-12 the first 16 hex digits of a SHA-256: a snapshot written then is not found, and the next
 * live listing replaces it.)
 */
export function snapshotConfigHash(config: McpServerConfig): string {
  return textHash64(stableJson({ transport: config.transport, environment: config.environment }));
}

export class SnapshotStore {
  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  static inHome(home: string, logger: Logger): SnapshotStore {
    return new SnapshotStore(path.join(home, 'cache', 'mcp-tools'), logger);
  }

  private fileFor(server: string, hash: string): string {
    return path.join(this.dir, `${server}-${hash}.json`);
  }

  /** The snapshot for this exact config, or undefined; a corrupt or mismatched file is ignored. */
  async load(config: McpServerConfig): Promise<ToolSnapshot | undefined> {
    const hash = snapshotConfigHash(config);
    const file = this.fileFor(config.name, hash);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const data = JSON.parse(text) as Partial<ToolSnapshot>;
      if (
        data.schema_version !== SNAPSHOT_SCHEMA_VERSION ||
        data.server !== config.name ||
        data.config_hash !== hash ||
        !Array.isArray(data.tools) ||
        !data.tools.every((t) => t && typeof t === 'object' && typeof (t as Tool).name === 'string')
      ) {
        this.logger.warn('ignoring mismatched MCP tool snapshot', { file });
        return undefined;
      }
      return { ...(data as ToolSnapshot), era: parseServerEra(data.era), cache: parseSnapshotCache(data.cache) };
    } catch (err) {
      this.logger.warn('ignoring corrupt MCP tool snapshot', { file, error: String(err) });
      return undefined;
    }
  }

  /** Persist the live list; older snapshots of the same server (other configs) are removed. */
  async save(config: McpServerConfig, tools: readonly Tool[], era?: ServerEra, cache?: SnapshotCache): Promise<void> {
    const hash = snapshotConfigHash(config);
    const snapshot = {
      schema_version: SNAPSHOT_SCHEMA_VERSION,
      server: config.name,
      config_hash: hash,
      saved_at: new Date().toISOString(),
      tools: [...tools],
      ...(era ? { era: serializeServerEra(era) } : {}),
      ...(cache ? { cache } : {}),
    };
    const file = this.fileFor(config.name, hash);
    try {
      await writeFileAtomic(file, JSON.stringify(snapshot), { mode: 0o600 });
      const prefix = `${config.name}-`;
      for (const entry of await readdir(this.dir)) {
        if (entry.startsWith(prefix) && entry.endsWith('.json') && entry !== path.basename(file) && /^[0-9a-f]{16}\.json$/.test(entry.slice(prefix.length))) {
          await rm(path.join(this.dir, entry), { force: true });
        }
      }
    } catch (err) {
      this.logger.warn('could not save MCP tool snapshot', { file, error: String(err) });
    }
  }
}
