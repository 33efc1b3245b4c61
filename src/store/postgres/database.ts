// One replica's connection to the shared PostgreSQL store: a pool, a fail-fast check at start, the
// migrations, and one wrapper that turns a failed query into a store_unavailable error.
import pg from 'pg';
import type { Logger } from '../../util/index.js';
import { storeUnavailable, unreachableAtStart, type DatabaseSource } from '../store-errors.js';
import { migrate } from './migrations.js';

export interface DatabaseOptions {
  source: DatabaseSource;
  url: string;
  logger: Logger;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /** How long start-up waits for the database (default 5 s). */
  connectTimeoutMs?: number;
}

export class Database {
  private constructor(
    readonly pool: pg.Pool,
    readonly source: DatabaseSource,
  ) {}

  /** Connect and migrate, or fail with a message naming the variable. */
  static async open(options: DatabaseOptions): Promise<Database> {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      // Lease heartbeats and turns must not hang on a database that stopped answering.
      query_timeout: 15_000,
    });
    // An idle connection the server dropped (a restart) is an event, not a crash: the pool replaces it.
    pool.on('error', (err) => options.logger.warn('a PostgreSQL store connection failed; it will be replaced', { error: err.message }));
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      const applied = await migrate(client);
      if (applied.length > 0) options.logger.info('PostgreSQL store migrated', { versions: applied });
    } catch (err) {
      client?.release(true);
      client = undefined;
      await pool.end().catch(() => {});
      throw unreachableAtStart(options.source, err);
    } finally {
      client?.release();
    }
    return new Database(pool, options.source);
  }

  /** One query; a failure becomes `store_unavailable` saying what could not be done. */
  async query<R extends pg.QueryResultRow>(what: string, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values);
    } catch (err) {
      throw storeUnavailable(this.source, what, err);
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}
