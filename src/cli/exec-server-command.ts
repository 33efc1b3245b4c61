// `switchboard exec-server`: run the remote execution service until SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { ExecLimits } from '../exec-server/index.js';
import { errorMessage, isSwitchboardError, teeLogger, type Logger } from '../util/index.js';
import type { CliContext } from './context.js';
import type { RegisterCommand } from './commands.js';
import { UsageError } from './exit-codes.js';
import { listenFlag, positiveInt, readBearerToken } from './flag-values.js';
import { addMetricsListenOption } from './http-serving.js';

/**
 * The service's default limits, for --help. The CLI does not load the service (and its WebSocket and
 * schema libraries) just to print help; a test keeps these equal to HELP_LIMIT_DEFAULTS.
 */
export const HELP_LIMIT_DEFAULTS: Pick<ExecLimits, 'maxProcessesPerConnection' | 'maxMessageBytes' | 'maxBufferedOutputBytes' | 'maxConnections'> = {
  maxProcessesPerConnection: 16,
  maxMessageBytes: 8 * 1024 * 1024,
  maxBufferedOutputBytes: 8 * 1024 * 1024,
  maxConnections: 64,
};

interface ExecServerFlags {
  listen: string;
  tokenFile?: string;
  insecureNoAuth?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  maxProcesses?: number;
  maxMessageBytes?: number;
  maxBufferedOutputBytes?: number;
  maxConnections?: number;
  verbose?: boolean;
  metricsListen?: string;
}

const HELP = `
Authentication:
  Every client must send "Authorization: Bearer <token>" when it opens the WebSocket; the token is
  compared in constant time before any message is read, and a wrong or missing token gets HTTP 401.
  The token comes from --token-file FILE (first line, surrounding whitespace removed) or, without
  that flag, from the SWITCHBOARD_EXEC_TOKEN environment variable. With no token the server refuses
  to start, unless --listen is a loopback address AND --insecure-no-auth is given.
  Clients name the token through [environments.<id>] token_env_var = "VAR" in config.toml.

TLS:
  --tls-cert FILE --tls-key FILE (PEM) serve wss:// instead of ws://. Without TLS the token and all
  traffic travel in clear text: use TLS, an SSH tunnel, or a private network off loopback.

Processes:
  Each process runs in its own process group with an environment built only from the names the
  client asks to inherit plus the values it sends. When a client disconnects, its processes' groups
  get SIGTERM, then SIGKILL after 2 s. SIGINT/SIGTERM to the server does the same for all of them.

The first line on stdout is "listening on ws://HOST:PORT" (wss:// with TLS).

Example:
  head -c 32 /dev/urandom | base64 > ~/.switchboard/exec-token && chmod 600 ~/.switchboard/exec-token
  switchboard exec-server --listen 0.0.0.0:7300 --token-file ~/.switchboard/exec-token
`;

function readTls(ctx: CliContext, flags: ExecServerFlags): { cert: Buffer; key: Buffer } | undefined {
  if (flags.tlsCert === undefined && flags.tlsKey === undefined) return undefined;
  if (flags.tlsCert === undefined || flags.tlsKey === undefined) throw new UsageError('--tls-cert and --tls-key must be given together');
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(path.resolve(ctx.cwd, file));
    } catch (err) {
      throw new UsageError(`cannot read ${flag} ${file}: ${errorMessage(err)}`);
    }
  };
  return { cert: read('--tls-cert', flags.tlsCert), key: read('--tls-key', flags.tlsKey) };
}

function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

async function runExecServer(ctx: CliContext, flags: ExecServerFlags): Promise<void> {
  const listen = listenFlag('--listen', flags.listen);
  const { startExecServer } = await import('../exec-server/index.js');
  const token = readBearerToken(ctx, flags.tokenFile, 'SWITCHBOARD_EXEC_TOKEN');
  const tls = readTls(ctx, flags);
  const limits: Partial<ExecLimits> = {};
  if (flags.maxProcesses !== undefined) limits.maxProcessesPerConnection = flags.maxProcesses;
  if (flags.maxMessageBytes !== undefined) limits.maxMessageBytes = flags.maxMessageBytes;
  if (flags.maxBufferedOutputBytes !== undefined) limits.maxBufferedOutputBytes = flags.maxBufferedOutputBytes;
  if (flags.maxConnections !== undefined) limits.maxConnections = flags.maxConnections;
  const logger: Logger = flags.verbose ? teeLogger(ctx.logger) : ctx.logger;
  // Installed before listening, so a signal that arrives during startup still shuts down cleanly.
  const shutdown = waitForShutdownSignal();
  const { startObservability } = await import('./observability.js');
  const observed = await startObservability(ctx, { title: 'switchboard exec-server', withOps: true, metricsListen: flags.metricsListen });
  const ops = observed.ops!;
  let server;
  try {
    server = await startExecServer({ listen, token, insecureNoAuth: flags.insecureNoAuth === true, tls, limits, logger, httpRoutes: (req, res, pathname, guard) => ops.serve(req, res, pathname, guard) });
  } catch (err) {
    if (isSwitchboardError(err, 'exec_auth_config') || isSwitchboardError(err, 'exec_config')) throw new UsageError(err.message);
    throw err;
  }
  ctx.stdout.write(`listening on ${server.url}\n`);
  if (token === null) ctx.stderr.write('warning: authentication is disabled (--insecure-no-auth); any local user can run processes as you\n');
  const signal = await shutdown;
  ctx.stderr.write(`received ${signal}; stopping processes and shutting down\n`);
  await server.close();
  await observed.close();
}

export const registerExecServerCommand: RegisterCommand = (program: Command, context: () => CliContext) => {
  const cmd = program.command('exec-server');
  addMetricsListenOption(cmd)
    .description('run stdio MCP servers (or any process) for other machines: a WebSocket service with token auth')
    .addOption(new Option('--listen <host:port>', 'address to listen on; port 0 picks a free one').default('127.0.0.1:0'))
    .addOption(new Option('--token-file <file>', 'file holding the bearer token clients must present (else $SWITCHBOARD_EXEC_TOKEN)'))
    .addOption(new Option('--insecure-no-auth', 'allow running without a token; loopback --listen only'))
    .addOption(new Option('--tls-cert <file>', 'PEM certificate: serve wss:// (with --tls-key)'))
    .addOption(new Option('--tls-key <file>', 'PEM private key for --tls-cert'))
    .addOption(
      new Option('--max-processes <n>', `processes per connection (default ${HELP_LIMIT_DEFAULTS.maxProcessesPerConnection})`).argParser(positiveInt('--max-processes')),
    )
    .addOption(
      new Option('--max-message-bytes <n>', `largest accepted frame (default ${HELP_LIMIT_DEFAULTS.maxMessageBytes})`).argParser(positiveInt('--max-message-bytes')),
    )
    .addOption(
      new Option('--max-buffered-output-bytes <n>', `output queued per connection before processes are paused (default ${HELP_LIMIT_DEFAULTS.maxBufferedOutputBytes})`).argParser(
        positiveInt('--max-buffered-output-bytes'),
      ),
    )
    .addOption(
      new Option('--max-connections <n>', `open connections (default ${HELP_LIMIT_DEFAULTS.maxConnections})`).argParser(positiveInt('--max-connections')),
    )
    .addOption(new Option('--verbose', 'also write log lines to stderr'))
    .addHelpText('after', HELP)
    .action(async (flags: ExecServerFlags) => {
      await runExecServer(context(), flags);
    });
};
