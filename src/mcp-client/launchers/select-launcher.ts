// Which StdioLauncher runs a server: the local one, or the exec-server / ssh environment it names
// (those two load their modules on the first launch).
import type { EnvironmentConfig, McpServerConfig } from '../../config/index.js';
import { assertNever, SwitchboardError } from '../../util/index.js';
import type { ExecutorLauncherOptions } from './executor-launcher.js';
import type { StdioLauncher } from './launcher.js';
import type { SshLauncherOptions } from './ssh-launcher.js';

/** Codex's id for "this machine"; usable without defining it. */
export const LOCAL_ENVIRONMENT_ID = 'local';

export interface LauncherSelection {
  /** The launcher for servers without `environment` (the local child-process launcher). */
  local: StdioLauncher;
  /** The config's [environments.<id>] tables. */
  environments: Readonly<Record<string, EnvironmentConfig>>;
  /** This machine's environment; default process.env. */
  env?: NodeJS.ProcessEnv;
  executor?: Omit<ExecutorLauncherOptions, 'env'>;
  ssh?: Omit<SshLauncherOptions, 'env'>;
}

export class UnknownEnvironmentError extends SwitchboardError {
  constructor(server: string, id: string, known: string[]) {
    const defined = known.length > 0 ? `defined: ${known.join(', ')}` : 'none are defined';
    super('unknown_environment', `MCP server '${server}' uses environment '${id}', which is not defined (${defined}); add an [environments.${id}] table to config.toml`);
    this.name = 'UnknownEnvironmentError';
  }
}

/** Whether a server's `environment` setting names this machine (the local launcher). */
export function runsLocally(server: Pick<McpServerConfig, 'environment'>, environments: Readonly<Record<string, EnvironmentConfig>>): boolean {
  const id = server.environment;
  return id === null || (id === LOCAL_ENVIRONMENT_ID && environments[id] === undefined);
}

/** The launcher for one server's `environment` setting. */
export function selectLauncher(server: Pick<McpServerConfig, 'name' | 'environment'>, selection: LauncherSelection): StdioLauncher {
  if (runsLocally(server, selection.environments)) return selection.local;
  const id = server.environment!;
  const environment = selection.environments[id];
  if (environment === undefined) {
    throw new UnknownEnvironmentError(server.name, id, Object.keys(selection.environments));
  }
  switch (environment.type) {
    case 'exec-server':
      return lazyLauncher('exec-server', async () => (await import('./executor-launcher.js')).createExecutorLauncher(environment, { ...selection.executor, env: selection.env }));
    case 'ssh':
      return lazyLauncher('ssh', async () => (await import('./ssh-launcher.js')).createSshLauncher(environment, { ...selection.ssh, env: selection.env }));
    default:
      return assertNever(environment, 'environment type');
  }
}

/** A remote launcher whose module loads on its first launch: a process with local servers only never loads it. */
function lazyLauncher(kind: StdioLauncher['kind'], load: () => Promise<StdioLauncher>): StdioLauncher {
  let launcher: Promise<StdioLauncher> | undefined;
  return {
    kind,
    launch: async (spec, options) => (await (launcher ??= load())).launch(spec, options),
  };
}
