// The current connection generation and the session-recovery lock: one recovery at a time; callers
// that fail meanwhile wait for it and then use the new generation instead of recovering again.
import { anySignal, raceSignal } from '../util/index.js';
import type { Logger } from '../util/index.js';
import { Connection } from './connection.js';
import type { ConnectionSetup } from './connection.js';
import type { TransportRecipe } from './recipe.js';

export interface KeeperOptions {
  recipe: TransportRecipe;
  setup: ConnectionSetup;
  /** The deadline for re-initializing after a session expired. */
  startupTimeoutMs: number;
  /** Aborted when the client closes. */
  closeSignal: AbortSignal;
  logger: Logger;
  /** A recovery installed a new generation. */
  onRecovered(connection: Connection): void;
}

export class ConnectionKeeper {
  private current: Connection | undefined;
  private generation = 0;
  private recovering: Promise<void> | undefined;

  constructor(private readonly options: KeeperOptions) {}

  get recipe(): TransportRecipe {
    return this.options.recipe;
  }

  get connection(): Connection | undefined {
    return this.current;
  }

  /** Open the next generation. One that finishes opening after its caller gave up is closed. */
  async open(attempt: { signal: AbortSignal; timeout: number }): Promise<Connection> {
    const opening = Connection.open(this.options.recipe, ++this.generation, this.options.setup, attempt);
    try {
      return await raceSignal(opening, attempt.signal);
    } catch (err) {
      void opening.then(
        (c) => c.close(),
        () => {},
      );
      throw err;
    }
  }

  install(connection: Connection): void {
    this.current = connection;
  }

  /** Wait out a recovery in progress; its failure is not ours to report (our own request will tell). */
  async settled(signal: AbortSignal): Promise<void> {
    if (this.recovering) await raceSignal(this.recovering, signal).catch(() => {});
  }

  /**
   * The session expired under `failed`: open a new session with the same parameters. If `failed` was
   * already replaced, there is nothing to do but retry; if a recovery is running, wait for it.
   */
  async recover(failed: Connection | undefined, signal: AbortSignal): Promise<void> {
    if (!failed || this.current !== failed) return;
    this.recovering ??= this.replace(failed).finally(() => {
      this.recovering = undefined;
    });
    await raceSignal(this.recovering, signal);
  }

  async close(): Promise<void> {
    const connection = this.current;
    this.current = undefined;
    await connection?.close();
  }

  private async replace(failed: Connection): Promise<void> {
    const { logger, setup, startupTimeoutMs, closeSignal } = this.options;
    logger.info(`MCP server '${setup.serverName}': session expired, re-initializing`);
    // Not tied to the caller that noticed: every waiter depends on this recovery.
    const signal = anySignal(AbortSignal.timeout(startupTimeoutMs), closeSignal);
    const next = await this.open({ signal, timeout: startupTimeoutMs });
    if (closeSignal.aborted) {
      await next.close();
      return;
    }
    this.current = next;
    // The old session is gone on the server, so there is nothing to DELETE.
    void failed.close({ terminateSession: false });
    this.options.onRecovered(next);
  }
}
