// The ssh launcher: runs a stdio MCP server on another machine through the system OpenSSH client;
// the remote script (ssh-command.ts) gives it its own process group and kills it when ssh goes away.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { abortError, errorMessage, SwitchboardError } from '../../util/index.js';
import { DEFAULT_ENV_VARS } from '../defaults.js';
import type { LaunchedServer, LaunchOptions, StdioLauncher, StdioServerSpec } from './launcher.js';
import { buildRemoteCommand } from './remote-command.js';
import { StdioTransport } from './stdio-transport.js';
import { McpClientError } from '../errors.js';
import { buildRemoteScript, buildSshArgv, type SshEnvironment } from './ssh-command.js';

export interface SshLauncherOptions {
  /** This machine's environment (`env_vars` with source "local", and ssh's own HOME, agent socket...). */
  env?: NodeJS.ProcessEnv;
  /** The ssh program; default `ssh` from PATH. */
  sshCommand?: string;
  /** Extra options before the host (tests pass a known_hosts file this way). */
  extraOptions?: string[];
  /** How long close() waits for ssh to exit after SIGTERM before SIGKILL. */
  closeTimeoutMs?: number;
}

/** What the local ssh client itself may see of our environment: enough to find keys, agent and config. */
const SSH_CLIENT_ENV = [...DEFAULT_ENV_VARS, 'SSH_AUTH_SOCK', 'SSH_ASKPASS', 'DISPLAY', 'KRB5CCNAME'];

function sshClientEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SSH_CLIENT_ENV) if (env[name] !== undefined) out[name] = env[name];
  return out;
}

function spawnSsh(program: string, argv: string[], env: Record<string, string>): Promise<ChildProcessWithoutNullStreams> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, argv, { stdio: ['pipe', 'pipe', 'pipe'], env, windowsHide: true });
    child.once('error', (err) =>
      reject(new SwitchboardError('ssh_spawn_failed', `cannot run ${program}: ${errorMessage(err)}; install the OpenSSH client`, { cause: err })),
    );
    child.once('spawn', () => resolve(child));
  });
}

export function createSshLauncher(environment: SshEnvironment, options: SshLauncherOptions = {}): StdioLauncher {
  const localEnv = options.env ?? process.env;
  const program = options.sshCommand ?? 'ssh';
  return {
    kind: 'ssh',
    async launch(spec: StdioServerSpec, launchOptions: LaunchOptions): Promise<LaunchedServer> {
      const { signal, logger } = launchOptions;
      if (signal?.aborted) throw abortError(signal);
      const { script, preamble } = buildRemoteScript(buildRemoteCommand(spec, localEnv));
      const argv = buildSshArgv(environment, script, { extraOptions: options.extraOptions, home: localEnv.HOME });
      const log = logger.child({ server: spec.serverName, environment: environment.id });
      const transport = new StdioTransport({ program: spec.command, logger: log, onStderrLine: launchOptions.onStderrLine });
      const child = await spawnSsh(program, argv, sshClientEnv(localEnv));
      const exited = new Promise<string>((resolve) => {
        child.on('close', (code, sig) => resolve(sig !== null ? `ssh was killed by ${sig}` : `ssh exited with code ${code}`));
      });
      child.on('error', (err) => log.warn('ssh process error', { error: errorMessage(err) }));
      child.stdin.on('error', () => {
        // EPIPE once ssh is gone; the 'close' handler reports the end.
      });
      child.stdout.on('data', (chunk: Buffer) => transport.receiveStdout(chunk));
      child.stderr.on('data', (chunk: Buffer) => transport.receiveStderr(chunk));
      void exited.then((reason) => {
        log.info(`MCP server over ssh ended: ${reason}`, { host: environment.host });
        transport.ended(new McpClientError('process_exited', `MCP server on ${environment.host} ended: ${reason}`));
      });
      const write = (data: Buffer | string) =>
        new Promise<void>((resolve, reject) => {
          child.stdin.write(data, (err) => (err ? reject(new SwitchboardError('transport_closed', `ssh to ${environment.host} is gone: ${err.message}`)) : resolve()));
        });
      if (preamble !== '') await write(preamble);
      const closeTimeoutMs = options.closeTimeoutMs ?? 3000;
      transport.attach({
        write,
        async terminate() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          // Ending the connection makes sshd exit; the remote watchdog then kills the server's group.
          child.stdin.end();
          child.kill('SIGTERM');
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), closeTimeoutMs)));
          try {
            if ((await Promise.race([exited, late])) === 'late') child.kill('SIGKILL');
          } finally {
            clearTimeout(timer);
          }
        },
      });
      if (signal?.aborted) {
        await transport.close();
        throw abortError(signal);
      }
      const where = `ssh ${environment.user !== null ? `${environment.user}@` : ''}${environment.host}${environment.port !== null ? `:${environment.port}` : ''} (local ssh pid ${child.pid})`;
      return { transport, stderrTail: () => transport.stderrTail(), describe: () => where };
    },
  };
}
