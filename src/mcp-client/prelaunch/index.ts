// Starting a local stdio server's process before the MCP layer has loaded. The manager asks for a
// server's client when it starts the server; the first time, the client's modules, the MCP SDK and
// its schemas take tens of milliseconds to load, and the server's own start (100 ms and more for a
// Node server) can run meanwhile. The process goes to the client's first launch (`adoptingLauncher`);
// one nobody takes is stopped when its client closes, or after the server's startup timeout. This
// module and what it imports stay free of the MCP SDK.
import { startupTimeoutMs, type EnvironmentConfig, type McpServerConfig } from '../../config/index.js';
import { PROCESS_GROUP_TERM_GRACE_MS, type Logger } from '../../util/index.js';
import { spawnLocalProcess, stopChild, type LocalLauncherOptions, type LocalProcess } from '../launchers/local-process.js';
import { runsLocally } from '../launchers/select-launcher.js';
import { stdioSpecOf } from '../recipe.js';

/** A server process started ahead of its client. */
export interface Prelaunch {
  /** The process (or why it did not start), once: for the client's first launch. */
  take(): Promise<LocalProcess> | undefined;
  /** Nobody will take it: stop it (nothing once taken). */
  abandon(): void;
}

/** Starts `config`'s process now when it is a stdio server that runs on this machine; undefined otherwise. */
export function prelaunchLocal(
  config: McpServerConfig,
  environments: Readonly<Record<string, EnvironmentConfig>>,
  local: LocalLauncherOptions,
  logger: Logger,
): Prelaunch | undefined {
  const t = config.transport;
  if (t.type !== 'stdio' || !runsLocally(config, environments)) return undefined;
  const started = spawnLocalProcess(stdioSpecOf(config.name, t), local, logger);
  // The launch that takes it reports a failure to start; one nobody takes has nothing to report.
  started.catch(() => {});
  let open = true;
  /** True the first time only: the process is then the caller's to take or stop. */
  const close = (): boolean => {
    if (!open) return false;
    open = false;
    clearTimeout(timer);
    return true;
  };
  const abandon = () => {
    if (!close()) return;
    logger.debug(`MCP server '${config.name}': stopping the process started ahead of its client, which never took it`);
    void started.then((p) => stopChild(p.child, local.termGraceMs ?? PROCESS_GROUP_TERM_GRACE_MS), () => {});
  };
  const timer = setTimeout(abandon, startupTimeoutMs(config));
  timer.unref();
  return { take: () => (close() ? started : undefined), abandon };
}
