// The current connection generation and the session-recovery lock: one recovery at a time; callers
// that fail meanwhile wait for it and then use the new generation instead of recovering again.
// It also keeps the server's era verdict, so later generations connect without probing again.
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import { anySignal, raceSignal } from '../util/index.js';
import type { Logger } from '../util/index.js';
import { Connection } from './connection.js';
import type { ConnectionSetup } from './connection.js';
import { isMcpClientError } from './errors.js';
import type { TransportRecipe } from './recipe.js';

export interface KeeperOptions {
  recipe: TransportRecipe;
  setup: ConnectionSetup;
  /** The deadline for re-initializing after a session expired. */
  startupTimeoutMs: number;
  /** Aborted when the client closes. */
  closeSignal: AbortSignal;
  logger: Logger;
  /** The era verdict recorded from an earlier run, adopted instead of probing. */
  prior?: PriorDiscovery;
  /** A recovery installed a new generation. */
  onRecovered(connection: Connection): void;
}

export class ConnectionKeeper {
  private current: Connection | undefined;
  private generation = 0;
  private recovering: Promise<void> | undefined;
  /** Replaced connections still finishing requests they accepted before their session expired. */
  private readonly retired = new Set<Connection>();
  private prior: PriorDiscovery | undefined;

  constructor(private readonly options: KeeperOptions) {
    this.prior = options.prior;
  }

  get recipe(): TransportRecipe {
    return this.options.recipe;
  }

  get connection(): Connection | undefined {
    return this.current;
  }

  /**
   * Open the next generation. A stdio server that exits on the era probe is started once more and
   * spoken to with `initialize` straight away (and so are its later generations).
   */
  async open(attempt: { signal: AbortSignal; timeout: number }): Promise<Connection> {
    try {
      return await this.openWith(attempt, this.prior);
    } catch (err) {
      if (!isMcpClientError(err, 'probe_failed') || attempt.signal.aborted) throw err;
      this.options.logger.info(`MCP server '${this.options.setup.serverName}' failed the 2026-07-28 probe (${err.message.split('\n')[0]}); starting it again with a 2025-era initialize`);
      return this.openWith(attempt, { kind: 'legacy' });
    }
  }

  /** One that finishes opening after its caller gave up is closed. */
  private async openWith(attempt: { signal: AbortSignal; timeout: number }, prior: PriorDiscovery | undefined): Promise<Connection> {
    const opening = Connection.open(this.options.recipe, ++this.generation, this.options.setup, attempt, prior);
    let connection: Connection;
    try {
      connection = await raceSignal(opening, attempt.signal);
    } catch (err) {
      void opening.then(
        (c) => c.close(),
        () => {},
      );
      throw err;
    }
    this.prior = connection.discovery() ?? this.prior;
    return connection;
  }

  install(connection: Connection): void {
    this.current = connection;
  }

  get isRecovering(): boolean {
    return this.recovering !== undefined;
  }

  /** Wait out a recovery in progress; its failure is not ours to report (our own request will tell). */
  async settled(signal: AbortSignal): Promise<void> {
    if (this.recovering) await raceSignal(this.recovering, signal).catch(() => {});
  }

  /**
   * The session expired under `failed`: open a new session with the same parameters. If `failed` was
   * already replaced, there is nothing to do but retry; if a recovery is running, wait for it. True
   * when this caller started the recovery (so each expiry is recovered, and reported, once).
   */
  async recover(failed: Connection | undefined, signal: AbortSignal): Promise<boolean> {
    if (!failed || this.current !== failed) return false;
    const ours = this.recovering === undefined;
    this.recovering ??= this.replace(failed).finally(() => {
      this.recovering = undefined;
    });
    await raceSignal(this.recovering, signal);
    return ours;
  }

  async close(): Promise<void> {
    const connection = this.current;
    this.current = undefined;
    const retired = [...this.retired];
    this.retired.clear();
    await Promise.all([connection?.close(), ...retired.map((c) => c.close({ terminateSession: false }))]);
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
    // The old session is gone on the server, so there is nothing to DELETE; requests it accepted
    // before expiring may still be answered, so it closes once they are done.
    this.retired.add(failed);
    void failed.closeWhenIdle({ terminateSession: false }).finally(() => this.retired.delete(failed));
    this.options.onRecovered(next);
  }
}
