// `switchboard serve` in-process: the gateway over Streamable HTTP (a handle to close) or over a
// pair of streams (until the input ends), its one pool of upstreams wired by createConnectionManager.
import type { Readable, Writable } from 'node:stream';
import type { Config } from '../config/index.js';
import { gatewayFor } from '../gateway/index.js';
import { createConnectionManager } from '../mcp/index.js';
import { serveHttp, serveStdio, type Product } from '../mcp-host/index.js';
import { checkAuthConfig, type AuthOptionNames } from '../mcp-host/http/index.js';
import { McpClientError, nullLogger, type Logger } from '../util/index.js';

/** What the gateway serves, for either transport. */
export interface GatewayServeOptions {
  /** The upstream servers are the enabled `config.mcp_servers`. */
  config: Config;
  /**
   * `false` (default): every enabled server, tools named `mcp__<server>__<tool>`, prompts
   * `<server>__<prompt>`. `true`: a pure proxy for the one enabled server, names unchanged.
   */
  transparent?: boolean;
  /**
   * `true`: tools/list offers `search_tools` and `call_tool` (plus the tools of servers marked
   * `always_loaded`) instead of the whole catalog, as `switchboard serve --tool-search`. Not with `transparent`.
   */
  toolSearch?: boolean;
  /** The environment upstream connections read variables from. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Receives the gateway's and its upstreams' log lines. Default: discarded. */
  logger?: Logger;
  /** The `serverInfo.name` clients see. Default: `switchboard-gateway`. */
  name?: string;
}

/** Where and how the HTTP gateway listens; the security rules are `switchboard serve --http`'s. */
export interface HttpGatewayOptions extends GatewayServeOptions {
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: any free port (read it from the handle). */
  port?: number;
  /** The bearer token every request must carry (at least 16 characters). */
  token?: string;
  /** Serve without a token: only on a loopback host, and only when set. */
  insecureNoAuth?: boolean;
  /** Names besides localhost and the bound address accepted in `Host`/`Origin`. */
  allowedHosts?: string[];
  /**
   * Sessions held at once. Default 10000 (a session holds only its protocol state). Past it, opening
   * one closes the least recently used session with no request in flight; only when every session
   * has one is a new client refused (HTTP 503).
   */
  maxSessions?: number;
  /** A session with no request and no traffic for this long is closed. Default 30 minutes. */
  idleTimeoutMs?: number;
  /**
   * Aborting it stops the gateway, as `close()` does; aborted before the gateway listens, the start
   * fails with McpClientError `cancelled`.
   */
  signal?: AbortSignal;
}

/** A running HTTP gateway. */
export interface HttpGateway {
  /** `http://host:port/mcp`, as clients should use it. */
  readonly url: string;
  readonly port: number;
  /** MCP sessions open now. */
  readonly sessionCount: number;
  /** Stop accepting, end every session, then close the upstream connections all sessions shared. */
  close(): Promise<void>;
}

/** The stdio gateway's streams; default the process's own stdin and stdout. */
export interface StdioGatewayOptions extends GatewayServeOptions {
  stdin?: Readable;
  /** Carries protocol frames only. */
  stdout?: Writable;
  /** Resolves when the gateway should stop as if its input had ended. */
  stop?: Promise<unknown>;
  /** Aborting it stops the gateway as `stop` does. */
  signal?: AbortSignal;
}

/** The startHttpGateway options by their names in code, for the messages that refuse a setting. */
const OPTION_NAMES: AuthOptionNames = {
  token: 'a `token`',
  insecure: '`insecureNoAuth: true`',
  makeToken: "`randomBytes(32).toString('base64url')` (node:crypto)",
};

function cancelled(signal: AbortSignal): McpClientError {
  return new McpClientError('cancelled', 'startHttpGateway was cancelled', { cause: signal.reason });
}

/** The gateway product over `options.config`, its upstreams wired by createConnectionManager. */
function gatewaySetup(options: GatewayServeOptions): { product: Product; logger: Logger } {
  const logger = options.logger ?? nullLogger;
  const { config } = options;
  const product = gatewayFor({
    config,
    ...(options.transparent ? { transparent: true } : {}),
    ...(options.toolSearch ? { toolSearch: true } : {}),
    ...(options.name ? { name: options.name } : {}),
    logger,
    createManager: (setup) => createConnectionManager(config, { ...setup, logger, env: options.env }),
  });
  return { product, logger };
}

/**
 * Serve the configured MCP servers as one MCP server over Streamable HTTP, in this process. As with
 * `switchboard serve`, a stdio server that sets no `stop_after_idle_sec` is stopped after
 * `config.mcp_stop_after_idle_sec` (default 60 s; 0: never) with nothing running, and started again
 * by its next use.
 *
 * @example
 * ```ts
 * const gateway = await startHttpGateway({ config, token: process.env.GATEWAY_TOKEN });
 * console.log(`MCP clients can connect to ${gateway.url}`);
 * // ... later
 * await gateway.close();
 * ```
 */
export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const listen = { host: options.host ?? '127.0.0.1', port: options.port ?? 0 };
  // Checked here first so that a refusal names these options, not the command line's flags.
  checkAuthConfig(listen, options.token ?? null, options.insecureNoAuth === true, false, OPTION_NAMES);
  const { signal } = options;
  if (signal?.aborted) throw cancelled(signal);
  const { product, logger } = gatewaySetup(options);
  const served = await serveHttp(product, {
    listen,
    token: options.token ?? null,
    insecureNoAuth: options.insecureNoAuth === true,
    allowedHosts: options.allowedHosts ?? [],
    ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  }, { logger });
  if (!signal) return served;
  if (signal.aborted) {
    await served.close();
    throw cancelled(signal);
  }
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= served.close());
  const onAbort = () => void close().catch((err: unknown) => logger.warn('closing the gateway on abort failed', { error: String(err) }));
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    url: served.url,
    port: served.port,
    get sessionCount() {
      return served.sessionCount;
    },
    close() {
      signal.removeEventListener('abort', onAbort);
      return close();
    },
  };
}

/**
 * Serve one MCP client on a pair of streams until the input ends (or `stop` resolves), then close
 * every upstream connection. Resolves with an exit code: 0, or 1 when the output failed.
 */
export async function runStdioGateway(options: StdioGatewayOptions): Promise<number> {
  const { product, logger } = gatewaySetup(options);
  const { signal } = options;
  let onAbort: (() => void) | undefined;
  const aborted = signal
    ? new Promise<void>((resolve) => {
        onAbort = () => resolve();
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', onAbort, { once: true });
      })
    : undefined;
  const stop = aborted && options.stop ? Promise.race([options.stop, aborted]) : (aborted ?? options.stop);
  try {
    return (await serveStdio(product, { stdin: options.stdin ?? process.stdin, stdout: options.stdout ?? process.stdout, ...(stop ? { stop } : {}) }, { logger })).exitCode;
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
