// The exec-server launcher: starts a stdio MCP server on a remote exec-server (one WebSocket
// connection per server) and forwards its stdin/stdout to the shared StdioTransport. The exec-server
// layer (WebSocket, node:http) loads on the first launch: a process with local servers never needs it.
import type { EnvironmentConfig } from '../../config/index.js';
import type { ExecProcess } from '../../exec-server/index.js';
import { errorMessage, isSwitchboardError, SwitchboardError } from '../../util/index.js';
import type { LaunchedServer, LaunchOptions, StdioLauncher, StdioServerSpec } from './launcher.js';
import { buildRemoteCommand } from './remote-command.js';
import { StdioTransport } from './stdio-transport.js';
import { McpClientError } from '../errors.js';

export type ExecServerEnvironment = Extract<EnvironmentConfig, { type: 'exec-server' }>;

export interface ExecutorLauncherOptions {
  /** This machine's environment: the token variable and `env_vars` with source "local". Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Extra CA certificates for wss:// exec-servers with a private certificate. */
  ca?: string | Buffer;
  /** How long close() waits for the remote process to exit before dropping the connection. */
  closeTimeoutMs?: number;
}

/** The exec-server's own grace period is 2 s; a little more lets its SIGKILL land first. */
const DEFAULT_CLOSE_TIMEOUT_MS = 3000;

function resolveToken(environment: ExecServerEnvironment, env: NodeJS.ProcessEnv): string | null {
  const name = environment.token_env_var;
  if (name === null) return null;
  const value = env[name];
  if (value === undefined) {
    throw new SwitchboardError('exec_token_missing', `Environment variable ${name} for exec-server environment '${environment.id}' is not set`);
  }
  if (value.trim() === '') throw new SwitchboardError('exec_token_missing', `Environment variable ${name} for exec-server environment '${environment.id}' is empty`);
  return value.trim();
}

export function createExecutorLauncher(environment: ExecServerEnvironment, options: ExecutorLauncherOptions = {}): StdioLauncher {
  const localEnv = options.env ?? process.env;
  return {
    kind: 'exec-server',
    async launch(spec: StdioServerSpec, launchOptions: LaunchOptions): Promise<LaunchedServer> {
      const { signal, logger } = launchOptions;
      const command = buildRemoteCommand(spec, localEnv);
      const token = resolveToken(environment, localEnv);
      const log = logger.child({ server: spec.serverName, environment: environment.id });
      const transport = new StdioTransport({ program: spec.command, logger: log, onStderrLine: launchOptions.onStderrLine });
      const { describeExit, ExecutorClient } = await import('../../exec-server/index.js');
      const client = await ExecutorClient.connect(environment.url, token, { signal, logger: log, ca: options.ca });
      let proc: ExecProcess;
      try {
        proc = await client.start(command.argv, {
          cwd: command.cwd,
          env: command.env,
          inheritEnv: command.inheritEnv,
          signal,
          onOutput: (chunk) => (chunk.stream === 'stdout' ? transport.receiveStdout(chunk.data) : transport.receiveStderr(chunk.data)),
        });
      } catch (err) {
        await client.close();
        if (signal?.aborted) throw err;
        throw new SwitchboardError(
          isSwitchboardError(err) ? err.code : 'exec_start_failed',
          `cannot start MCP server '${spec.serverName}' on exec-server ${environment.url}: ${errorMessage(err)}`,
          { cause: err },
        );
      }
      const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
      transport.attach({
        write: (frame) => proc.write(frame),
        async terminate() {
          await proc.kill().catch(() => {});
          let timer: NodeJS.Timeout | undefined;
          try {
            await Promise.race([proc.exited, new Promise((resolve) => (timer = setTimeout(resolve, closeTimeoutMs)))]);
          } finally {
            clearTimeout(timer);
          }
          // Dropping the connection also makes the exec-server end anything still running.
          await client.close();
        },
      });
      void proc.exited.then((exit) => {
        const reason = `MCP server process on ${environment.url} ${describeExit(exit)}`;
        log.info(reason, { pid: proc.pid });
        transport.ended(new McpClientError(exit.type === 'exited' ? 'process_exited' : 'connection_closed', reason));
        void client.close();
      });
      const where = `exec-server ${environment.url} pid ${proc.pid}`;
      return { transport, stderrTail: () => transport.stderrTail(), describe: () => where };
    },
  };
}
