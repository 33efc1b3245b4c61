// Startup snapshots: each server's last live tool list on disk, so a warm start can answer at once,
// and the protocol revision it negotiated, so a warm start connects without probing for it again.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import { replaceCacheFileSync, stableJson, textHash64, type Logger } from '../util/index.js';
import { parseServerEra, serializeServerEra, type ServerEra } from './server-era.js';

export const SNAPSHOT_SCHEMA_VERSION = 1;

export interface ToolSnapshot {
  schema_version: number;
  server: string;
  config_hash: string;
  /** When the file was written: a start whose live list changed nothing in it leaves it as it was. */
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

/** What a snapshot says beyond its header: its tools, era and cache hint (these two in their on-disk form). */
interface SnapshotBody {
  tools: readonly unknown[];
  era?: unknown;
  cache?: unknown;
}

/** A snapshot's body as one text: the same text is the same snapshot. */
function bodyText({ tools, era, cache }: SnapshotBody): string {
  return JSON.stringify({ tools, ...(era ? { era } : {}), ...(cache ? { cache } : {}) });
}

export class SnapshotStore {
  /**
   * What each snapshot file holds as far as this store knows (its tools, era and cache hint, as it
   * read them there or last wrote them): a live list that is what its file already holds writes
   * nothing, as on every later run of a server that did not change, or a restart after
   * stop_after_idle_sec. Ten such writes (as they were made then: each a temporary file, an fsync, a
   * rename and a readdir through libuv's threads) cost 10 to 40 ms of the manager's CPU in a later
   * run's cold start (docs/performance.md). What a load read is kept as it was read and made a text
   * by the first save that compares it (a command that only reads snapshots makes none); what a save
   * compared or wrote is kept as its text.
   */
  private readonly onDisk = new Map<string, SnapshotBody | string>();

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  static inHome(home: string, logger: Logger): SnapshotStore {
    return new SnapshotStore(path.join(home, 'cache', 'mcp-tools'), logger);
  }

  /** Removes `server`'s snapshots other than `file` (those of its other configs). */
  private removeOtherConfigs(server: string, file: string): void {
    const prefix = `${server}-`;
    for (const entry of readdirSync(this.dir)) {
      if (entry.startsWith(prefix) && entry !== path.basename(file) && /^[0-9a-f]{16}\.json$/.test(entry.slice(prefix.length))) {
        rmSync(path.join(this.dir, entry), { force: true });
      }
    }
  }

  private fileFor(server: string, hash: string): string {
    return path.join(this.dir, `${server}-${hash}.json`);
  }

  /**
   * The snapshot for this exact config, or undefined; a corrupt or mismatched file is ignored. Read
   * synchronously, as save() writes: a small file, read before the manager starts any server (so a
   * later run's first server starts 1 to 2 ms sooner), and a command that only prints from snapshots
   * starts none of libuv's worker threads (docs/performance.md, "Issue 37, twenty-fourth round").
   */
  async load(config: McpServerConfig): Promise<ToolSnapshot | undefined> {
    const hash = snapshotConfigHash(config);
    const file = this.fileFor(config.name, hash);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
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
      // As the file holds them (a malformed era or hint differs from any a save would write).
      this.onDisk.set(file, { tools: data.tools, era: data.era, cache: data.cache });
      return { ...(data as ToolSnapshot), era: parseServerEra(data.era), cache: parseSnapshotCache(data.cache) };
    } catch (err) {
      this.logger.warn('ignoring corrupt MCP tool snapshot', { file, error: String(err) });
      return undefined;
    }
  }

  /**
   * Persist the live list; older snapshots of the same server (other configs) are removed. A list
   * (with its era and cache hint) that is what the file holds, as far as this store knows, is not
   * written again. Done before it returns: a few system calls for a small file (replaceCacheFileSync).
   */
  save(config: McpServerConfig, tools: readonly Tool[], era?: ServerEra, cache?: SnapshotCache): void {
    const hash = snapshotConfigHash(config);
    const file = this.fileFor(config.name, hash);
    const body = bodyText({ tools, ...(era ? { era: serializeServerEra(era) } : {}), ...(cache ? { cache } : {}) });
    const known = this.onDisk.get(file);
    const knownText = known === undefined || typeof known === 'string' ? known : bodyText(known);
    this.onDisk.set(file, body);
    if (body === knownText) return;
    const head = JSON.stringify({ schema_version: SNAPSHOT_SCHEMA_VERSION, server: config.name, config_hash: hash, saved_at: new Date().toISOString() });
    try {
      // The header's fields, then the body's: two JSON objects' texts joined into one. A snapshot is
      // a cache (a torn one is corrupt JSON, which load() ignores): replaced, not synced to the disk.
      replaceCacheFileSync(file, `${head.slice(0, -1)},${body.slice(1)}`, 0o600);
      // A file this store knew of was there already, and whoever wrote it removed the others then; a
      // new one (a first run, a changed config) replaces the server's snapshots of other configs.
      if (known === undefined) this.removeOtherConfigs(config.name, file);
    } catch (err) {
      // Not known to be there: the next save writes it.
      this.onDisk.delete(file);
      this.logger.warn('could not save MCP tool snapshot', { file, error: String(err) });
    }
  }
}
