// What `mcp-server --http` and `serve --http` share: their HTTP flags, turning the flags into the
// host's options (address, token, limits; refused with exit code 2 when unsafe), and the listener's
// life from "listening on <url>" to a signal.
import { Option, type Command } from 'commander';
import type { HttpServeOptions } from '../mcp-host/index.js';
import { isSwitchboardError } from '../util/index.js';
import type { CliContext } from './context.js';
import { UsageError } from './exit-codes.js';
import { listenFlag, nonNegativeInt, positiveInt, readBearerToken } from './flag-values.js';
import { preloadedAllocator } from './server-allocator.js';

export interface HttpServeFlags {
  http?: string;
  tokenFile?: string;
  insecureNoAuth?: boolean;
  allowedHost: string[];
  maxSessions?: number;
  idleTimeout?: number;
  releaseMemoryAfter?: number;
  metricsListen?: string;
}

/** HTTP_DEFAULTS.maxSessions and IDLE_RELEASE_MS of mcp-host, repeated for the help text (mcp-host loads only when serving). */
const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_RELEASE_MEMORY_AFTER_S = 60;

/** `--metrics-listen`, for every long-running command (its routes load only when it serves them). */
export function addMetricsListenOption(cmd: Command): Command {
  return cmd.addOption(
    new Option('--metrics-listen <host:port>', 'also serve /metrics, /healthz and /readyz without the token at this address (for scrapers and probes)'),
  );
}

/** The flags of an MCP endpoint served over Streamable HTTP. */
export function addHttpServeOptions(cmd: Command): Command {
  return addMetricsListenOption(cmd)
    .addOption(new Option('--http <host:port>', 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio'))
    .addOption(new Option('--token-file <file>', 'HTTP: file holding the bearer token clients must send (else $SWITCHBOARD_MCP_TOKEN; optional with a [server_auth] issuer)'))
    .addOption(new Option('--insecure-no-auth', 'HTTP: run without a token; loopback addresses only'))
    .addOption(
      new Option('--allowed-host <name>', 'HTTP: also accept this name in Host/Origin (repeatable)')
        .argParser((v: string, prev: string[]) => [...prev, v])
        .default([], 'none'),
    )
    .addOption(
      new Option(
        '--max-sessions <n>',
        `HTTP: sessions held at once (default ${DEFAULT_MAX_SESSIONS}); past it the least recently used idle session is closed, its next request gets 404 and its client re-initializes`,
      ).argParser(positiveInt('--max-sessions')),
    )
    .addOption(new Option('--idle-timeout <seconds>', 'HTTP: close a session idle this long (default 1800)').argParser(positiveInt('--idle-timeout')))
    .addOption(
      new Option(
        '--release-memory-after <seconds>',
        `HTTP: when no request has come for this long, collect the heap and give it back to the system (default ${DEFAULT_RELEASE_MEMORY_AFTER_S}; 0: never). Sooner saves memory between bursts, but the calls after it run slower for a while`,
      ).argParser(nonNegativeInt('--release-memory-after')),
    );
}

/**
 * The host options the flags ask for, or null for stdio; `oauth`: [server_auth] names an issuer, so
 * OAuth tokens stand in for a static one. Checked before anything starts: a bad address
 * or an unsafe token setting is a usage error.
 */
export async function httpServeOptions(ctx: CliContext, flags: HttpServeFlags, oauth = false): Promise<HttpServeOptions | null> {
  if (flags.http === undefined) return null;
  const listen = listenFlag('--http', flags.http);
  const token = readBearerToken(ctx, flags.tokenFile, 'SWITCHBOARD_MCP_TOKEN');
  const insecureNoAuth = flags.insecureNoAuth === true;
  const { checkAuthConfig, IDLE_RELEASE_MS } = await import('../mcp-host/http/index.js');
  try {
    checkAuthConfig(listen, token, insecureNoAuth, oauth);
  } catch (err) {
    if (isSwitchboardError(err, 'http_auth_config')) throw new UsageError(err.message);
    throw err;
  }
  return {
    listen,
    token,
    insecureNoAuth,
    allowedHosts: flags.allowedHost,
    // The process is the server: its heap goes back to the system when quiet (a library's host does not).
    releaseIdleMemoryAfterMs: flags.releaseMemoryAfter !== undefined ? flags.releaseMemoryAfter * 1000 : IDLE_RELEASE_MS,
    ...(flags.maxSessions !== undefined ? { maxSessions: flags.maxSessions } : {}),
    ...(flags.idleTimeout !== undefined ? { idleTimeoutMs: flags.idleTimeout * 1000 } : {}),
  };
}

/** An HTTP listener's life: announce its URL (and an open door), serve until a signal, close. Exit code 0. */
export async function serveUntilStopped(ctx: CliContext, host: { url: string; close(): Promise<void> }, stop: Promise<NodeJS.Signals>, noAuthRisk: string | null): Promise<number> {
  ctx.stdout.write(`listening on ${host.url}\n`);
  ctx.logger.debug('http listening', { url: host.url, allocator: preloadedAllocator() });
  if (noAuthRisk !== null) ctx.stderr.write(`warning: authentication is disabled (--insecure-no-auth); ${noAuthRisk}\n`);
  const signal = await stop;
  ctx.stderr.write(`received ${signal}; shutting down\n`);
  await host.close();
  return 0;
}

/** Resolves with the first SIGINT or SIGTERM; dispose() stops listening for them. */
export function stopSignal(): { promise: Promise<NodeJS.Signals>; dispose: () => void } {
  let onSignal: (s: NodeJS.Signals) => void = () => {};
  const promise = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  return { promise, dispose: () => (process.off('SIGINT', onSignal), process.off('SIGTERM', onSignal)) };
}
