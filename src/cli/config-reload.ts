// The live configuration of a long-running command (`serve`, `mcp-server`, `mcp status --watch`): it
// watches config.toml and reloads on SIGHUP, reads and validates a changed file, and hands a valid one
// to the command's apply step. A file that cannot be applied (TOML, schema, a variable a new server
// needs that this process lacks, or a change the command refuses) changes nothing: the running
// configuration keeps serving, and the error, with its line and column, goes to the log and to the
// status (the status page, /readyz, /metrics, `mcp status --watch`) until a reload succeeds.
import { readFile } from 'node:fs/promises';
import {
  ConfigError,
  configRevision,
  defaultConfigPath,
  loadConfig,
  locateKey,
  requiredVariables,
  watchConfigFile,
  type Config,
  type ConfigWatch,
  type LoadedConfig,
} from '../config/index.js';
import { diffServers } from '../mcp/index.js';
import type { ConfigRow, ConfigSource } from '../mcp-host/ops/index.js';
import { Coalesced, errorMessage } from '../util/index.js';
import type { CliContext } from './context.js';

export type LoadedFile = LoadedConfig & { text: string | null };

/** What applying a config did: a line for the log, and what only a restart applies (`key: why`). */
export interface Applied {
  summary: string;
  restartNeeded: string[];
}

/**
 * Applies a validated config; throws to refuse it (nothing may have changed then). `started` is the
 * config the process started with (what settings read at start still are), `previous` the one in force.
 */
export type ApplyConfig = (next: LoadedFile, context: { started: Config; previous: Config }) => Promise<Applied>;

type Ctx = Pick<CliContext, 'home' | 'configFile' | 'overrides' | 'logger' | 'env'>;

export class LiveConfig implements ConfigSource {
  private applied: { loaded: LoadedFile; revision: string; at: number };
  private readonly started: Config;
  private error: ConfigRow['error'];
  private failedRevision: string | undefined;
  private restartNotes: string[] = [];
  private readonly reloads = { applied: 0, failed: 0 };
  private readonly listeners: (() => void)[] = [];
  private readonly rereads = new Coalesced(() => this.reloadOnce().catch((err: unknown) => this.ctx.logger.error('config reload failed unexpectedly', { error: errorMessage(err) })));
  private watch: ConfigWatch | undefined;
  // SIGHUP asks for the file again even when it failed before as it is (an operator's explicit retry).
  private readonly onHangup = () => {
    this.failedRevision = undefined;
    void this.reload();
  };

  constructor(
    private readonly ctx: Ctx,
    initial: LoadedFile,
    private readonly apply: ApplyConfig,
  ) {
    this.started = initial.config;
    this.applied = { loaded: initial, revision: configRevision(initial.text), at: Date.now() };
  }

  /** The config in force. */
  get config(): Config {
    return this.applied.loaded.config;
  }

  get file(): string {
    return this.ctx.configFile ?? defaultConfigPath(this.ctx.home);
  }

  current(): ConfigRow {
    return {
      revision: this.applied.revision,
      appliedAt: this.applied.at,
      ...(this.error ? { error: this.error } : {}),
      restartNeeded: [...this.restartNotes],
      reloads: { ...this.reloads },
    };
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Watch the file (unless `watchFile: false`) and reload on SIGHUP, until close(). */
  start(options: { watchFile?: boolean } = {}): this {
    if (options.watchFile !== false) {
      this.watch = watchConfigFile(this.file, () => void this.reload(), {
        onError: (err) => this.ctx.logger.warn(`not watching ${this.file} for changes (${errorMessage(err)}); send SIGHUP to reload it`),
      });
    }
    process.on('SIGHUP', this.onHangup);
    return this;
  }

  close(): void {
    this.watch?.close();
    process.off('SIGHUP', this.onHangup);
  }

  /** Read the file again and apply it if it changed; resolves when done (reloads asked for meanwhile run after). */
  reload(): Promise<void> {
    return this.rereads.run();
  }

  private async reloadOnce(): Promise<void> {
    const text = await readFile(this.file, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
    const revision = configRevision(text);
    if (revision === this.applied.revision) {
      // Back to the file in force (or a change of nothing): a failure reported since is over.
      if (this.error) this.settle(undefined, `${this.file} is back to revision ${revision}, which is in force`);
      return;
    }
    if (revision === this.failedRevision) return;
    let loaded: LoadedFile;
    let done: Applied;
    try {
      loaded = await loadConfig({ home: this.ctx.home, ...(this.ctx.configFile ? { file: this.ctx.configFile } : {}), overrides: this.ctx.overrides });
      this.checkVariables(loaded);
      done = await this.apply(loaded, { started: this.started, previous: this.config });
    } catch (err) {
      this.failedRevision = revision;
      this.reloads.failed += 1;
      const location = err instanceof ConfigError ? err.location : {};
      const message = errorMessage(err);
      this.ctx.logger.error(`config not applied; revision ${this.applied.revision} still serves: ${message}`, { file: this.file, revision });
      this.settle({ message, ...(location.line !== undefined ? { line: location.line } : {}), ...(location.column !== undefined ? { column: location.column } : {}), at: Date.now() });
      return;
    }
    for (const w of loaded.warnings) this.ctx.logger.warn(w);
    const from = this.applied.revision;
    this.applied = { loaded, revision: configRevision(loaded.text), at: Date.now() };
    this.restartNotes = done.restartNeeded;
    this.reloads.applied += 1;
    this.failedRevision = undefined;
    for (const note of done.restartNeeded) this.ctx.logger.warn(`config: ${note}; restart to apply it`);
    this.settle(undefined, `config reloaded (revision ${from} -> ${this.applied.revision}): ${done.summary}`);
  }

  /**
   * A server the new file adds, or reaches differently, cannot start without the variables it names,
   * and a running process keeps the environment it started with: refused, naming the key.
   */
  private checkVariables(loaded: LoadedFile): void {
    const running = new Map(Object.entries(this.config.mcp_servers).filter(([, s]) => s.enabled));
    const diff = diffServers(running, loaded.config.mcp_servers);
    for (const server of [...diff.added, ...diff.restarted]) {
      for (const { variable, keyPath } of requiredVariables(server, loaded.config.environments)) {
        if (this.ctx.env[variable] !== undefined && this.ctx.env[variable]!.trim() !== '') continue;
        const at = loaded.text === null ? undefined : locateKey(loaded.text, keyPath);
        throw new ConfigError(
          `environment variable ${variable} is not set in this process (it keeps the environment it started with); set it and restart, or name a variable it has`,
          { file: this.file, ...(at ?? {}), keyPath },
        );
      }
    }
  }

  private settle(error: ConfigRow['error'], info?: string): void {
    this.error = error;
    if (info) this.ctx.logger.info(info);
    for (const listener of this.listeners) listener();
  }
}

/** One line for the log: what a reload did to the servers. */
export function serversSummary(servers: { added: string[]; removed: string[]; restarted: string[]; updated: string[] } | undefined): string {
  if (!servers) return 'servers apply when the upstreams start';
  const parts = (['added', 'removed', 'restarted', 'updated'] as const).filter((k) => servers[k].length > 0).map((k) => `${k} ${servers[k].join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'no MCP server changed';
}
