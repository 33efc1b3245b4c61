// `switchboard serve`: every configured MCP server behind one MCP endpoint (stdio, or Streamable HTTP
// with the same token, loopback and Host/Origin rules as `mcp-server --http`); `--transparent` turns
// the gateway into a pure proxy for a single upstream.
import { pathToFileURL } from 'node:url';
import { Option, type Command } from 'commander';
import type * as GatewayModule from '../gateway/index.js';
import type * as HostModule from '../mcp-host/index.js';
import { isSwitchboardError, teeLogger } from '../util/index.js';
import type { RegisterCommand } from './commands.js';
import { openConfiguredStore, sharedRequestStateKey, sharedSessions } from './store-compose.js';
import type { CliContext } from './context.js';
import { UsageError } from './exit-codes.js';
import { createMcpManager } from './mcp-compose.js';
import { addHttpServeOptions, httpServeOptions, serveUntilStopped, stopSignal, type HttpServeFlags } from './http-serving.js';
import { composeServerAuth, type ServedAuth } from './server-auth-compose.js';
import { LiveConfig, serversSummary } from './config-reload.js';
import { restartNeeded } from './restart-keys.js';
import type { Observability } from './observability.js';
import { ALLOCATOR_HELP } from './server-allocator.js';
import { composeCallerIdentities, type ComposedIdentities } from './caller-identity-compose.js';

interface ServeFlags extends HttpServeFlags {
  transparent?: boolean;
  toolSearch?: boolean;
  verbose?: boolean;
}

const HELP = `
What it serves:
  Every enabled [mcp_servers.*] entry of config.toml, as one MCP server:
  - tools under their model-visible names (mcp__<server>__<tool>, as \`switchboard mcp tools\`
    shows them), with inputSchema, outputSchema, annotations and _meta as the servers give them;
  - resources and resource templates under their original URIs (_meta["switchboard/server"] says
    which server serves each; a URI offered twice goes to the first server in config order);
  - prompts as <server>__<prompt>; completion/complete for prompts and resource templates;
  - logging/setLevel, passed on to every server that supports logging.
  tools/list answers at once from startup snapshots while servers start; a call to a tool whose
  server is still starting waits for it. A server that fails drops out of the catalog (with
  notifications/tools/list_changed) and comes back when it recovers; the gateway keeps running.
  Each failure reaches the client once as notifications/message (level error, logger
  "switchboard") with the text \`switchboard mcp status\` shows.

Relayed both ways, tied to the request that caused them:
  elicitation/create, sampling/createMessage and roots/list from a server go to the client whose
  request runs on it (a client that lacks the capability gets the refusal its SDK would give, and
  roots/list then gets the working directory); its log messages and progress; the client's
  notifications/cancelled; resources/updated to the clients that subscribed; list_changed for
  tools, prompts and resources to every client whenever the catalog changes.

--tool-search:
  For clients that cannot defer tools themselves: tools/list offers two tools, search_tools
  ({query, limit?} → the best-matching tools with name, description, inputSchema and score) and
  call_tool ({name, arguments} → checks the arguments against the tool's inputSchema, then calls
  it), plus the tools of servers marked always_loaded = true. The search index follows the
  catalog as servers start, fail and send list_changed.

--transparent:
  Exactly one enabled server, names unchanged (raw tool and prompt names, no _meta added): a pure
  proxy with switchboard's restarts, session recovery, OAuth and timeouts in between.

Transports:
  stdio (default)   One client on stdin/stdout; stdout carries protocol frames only. Logs go to
                    $SWITCHBOARD_HOME/log/switchboard.log (and stderr with --verbose). When stdin
                    closes, every server connection is closed and the process exits 0.
  --http HOST:PORT  Streamable HTTP at http://HOST:PORT/mcp; the first stdout line is
                    "listening on <url>". All sessions share one set of server connections
                    (one process per stdio server, however many clients). SIGINT/SIGTERM shut it
                    down.

Security (HTTP), as for \`switchboard mcp-server --http\`:
  Every request must carry "Authorization: Bearer <token>": --token-file FILE (first line) or
  $SWITCHBOARD_MCP_TOKEN, at least 16 characters. Without one the gateway refuses to start unless
  HOST is loopback and --insecure-no-auth is given. On a loopback HOST, Host must be a loopback name
  or an --allowed-host name; a browser's Origin must be the gateway's own or name localhost,
  127.0.0.1, [::1], the bound address or an --allowed-host name; else 403.
  With [server_auth] in config.toml the gateway is an OAuth protected resource: it accepts access
  tokens of the configured issuer (RFC 9728 metadata at /.well-known/oauth-protected-resource),
  shows each caller only the tools, prompts and resources its token's claims allow, limits each
  caller and writes an audit trail (\`switchboard audit tail\`). See docs/server-auth.md.

${ALLOCATOR_HELP}

Examples:
  claude mcp add switchboard -- switchboard serve
  switchboard serve --http 127.0.0.1:8766 --token-file ~/.switchboard/mcp-token
  switchboard serve --http 127.0.0.1:0 --insecure-no-auth --transparent
`;

async function runServe(ctx: CliContext, flags: ServeFlags): Promise<number> {
  const loaded = await ctx.loadConfig();
  const { config } = loaded;
  const plainHttp = await httpServeOptions(ctx, flags, config.server_auth?.issuer !== undefined);
  if (flags.toolSearch && flags.transparent) throw new UsageError('--tool-search cannot be combined with --transparent (a pure proxy keeps the upstream\'s own tools/list)');
  const [mcp, host]: [typeof GatewayModule, typeof HostModule] = await Promise.all([import('../gateway/index.js'), import('../mcp-host/index.js')]);
  const logger = flags.verbose ? teeLogger(ctx.logger) : ctx.logger;
  const store = await openConfiguredStore(ctx, config);
  let served: ServedAuth | undefined;
  let observed: Observability;
  let callers: ComposedIdentities | undefined;
  try {
    served = plainHttp ? await composeServerAuth(config, plainHttp, logger, store) : undefined;
    // Over stdio the one client is the local user, the operator: servers act as the operator.
    callers = plainHttp ? await composeCallerIdentities(config, store, ctx.env, logger) : undefined;
    const { startObservability } = await import('./observability.js');
    observed = await startObservability(ctx, { title: 'switchboard gateway', withOps: plainHttp !== null, metricsListen: flags.metricsListen });
  } catch (err) {
    await store.close();
    throw err;
  }
  const http = served?.http;
  if (!Object.values(config.mcp_servers).some((s) => s.enabled)) ctx.stderr.write('warning: no enabled MCP servers in config.toml; the gateway serves an empty catalog\n');
  let product: GatewayModule.GatewayProduct | undefined;
  // A changed config.toml, applied while serving: the gateway first (it may refuse the file, and then
  // nothing else may have changed), then [server_auth]'s rules and limits.
  const live = new LiveConfig({ ...ctx, logger }, loaded, async (next, { started }) => {
    const { servers } = product!.reload(next.config, { drainTimeoutMs: next.config.mcp_reload_drain_timeout_ms });
    return { summary: serversSummary(servers), restartNeeded: [...restartNeeded(started, next.config), ...(served?.reload(next.config.server_auth) ?? [])] };
  });
  try {
    product = mcp.gatewayFor({
      config,
      transparent: flags.transparent === true,
      toolSearch: flags.toolSearch === true,
      transparentOption: '--transparent',
      logger,
      storeReachable: () => store.reachable(),
      roots: [{ uri: pathToFileURL(ctx.cwd).href, name: 'workspace' }],
      createManager: (setup) =>
        // The config in force when the upstreams open (a reload may have replaced the first one).
        createMcpManager({ ...ctx, logger, telemetry: observed.telemetry }, live.config, {
          ...setup,
          oauthCredentials: store.credentials,
          ...(callers ? { identities: callers.identities } : {}),
        }),
    });
  } catch (err) {
    await observed.close();
    await store.close();
    if (isSwitchboardError(err, 'gateway_transparent')) throw new UsageError(err.message);
    throw err;
  }
  const serving = { logger, telemetry: observed.telemetry, ...(served?.access ? { access: served.access } : {}), ...(served?.audit ? { audit: served.audit } : {}) };
  live.start();
  observed.ops?.setConfig(live);
  const stop = stopSignal();
  try {
    if (!http) return (await host.serveStdio(product, { stdin: process.stdin, stdout: process.stdout, stop: stop.promise, ...(observed.ops ? { ops: observed.ops } : {}) }, serving)).exitCode;
    // Sessions only over HTTP: a replica behind a load balancer serves sessions other replicas opened.
    const shared = sharedSessions(store, 'serve');
    const listener = await host.serveHttp(
      product,
      { ...http, ...(shared ? { sharedSessions: shared } : {}), ...sharedRequestStateKey(store), ...(observed.ops ? { ops: observed.ops } : {}), ...(callers ? { routes: callers.routes } : {}) },
      serving,
    );
    callers?.listening(listener.url);
    return await serveUntilStopped(ctx, listener, stop.promise, http.token === null && !http.auth?.acceptsOAuth ? 'any local process can use your MCP servers through this gateway' : null);
  } finally {
    live.close();
    stop.dispose();
    await observed.close();
    await store.close();
  }
}

export const registerServeCommand: RegisterCommand = (program: Command, context: () => CliContext, result) => {
  const cmd = program
    .command('serve')
    .description('serve every configured MCP server as one MCP server (a gateway), over stdio or Streamable HTTP');
  addHttpServeOptions(cmd)
    .addOption(new Option('--transparent', 'pure proxy for exactly one enabled server: raw tool and prompt names'))
    .addOption(new Option('--tool-search', 'offer search_tools and call_tool instead of every tool (plus always_loaded servers\' tools)'))
    .addOption(new Option('--verbose', 'also write log lines to stderr'))
    .addHelpText('after', HELP)
    .action(async (flags: ServeFlags) => {
      result.exitCode = await runServe(context(), flags);
    });
};
