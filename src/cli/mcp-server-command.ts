// `switchboard mcp-server`: the agent as an MCP server, a drop-in replacement for `codex mcp-server`.
// stdio by default; `--http host:port` serves Streamable HTTP with a bearer token instead.
import os from 'node:os';
import { Option, type Command } from 'commander';
import type { Config } from '../config/index.js';
import type { ThreadManager } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { McpConnectionManager } from '../mcp/index.js';
import type { Ops } from '../mcp-host/ops/index.js';
import type * as AgentServerModule from '../agent-server/index.js';
import { teeLogger, VERSION } from '../util/index.js';
import type { RegisterCommand } from './commands.js';
import type { CliContext } from './context.js';
import { createAgent, startMcpServers } from './exec-command.js';
import { positiveInt } from './flag-values.js';
import { openConfiguredStore, sharedRequestStateKey, sharedSessions } from './store-compose.js';
import { addHttpServeOptions, httpServeOptions, serveUntilStopped, stopSignal, type HttpServeFlags } from './http-serving.js';
import { composeServerAuth, type ServedAuth } from './server-auth-compose.js';
import type { ComposedIdentities } from './caller-identity-compose.js';
import { LiveConfig, serversSummary } from './config-reload.js';
import { restartNeeded } from './restart-keys.js';
import { agentCwd, sessionSettings, type CodexFlags } from './codex-options.js';
import { ALLOCATOR_HELP } from './server-allocator.js';

interface McpServerFlags extends HttpServeFlags, CodexFlags {
  maxTurns?: number;
  progressInterval: number;
  verbose?: boolean;
}

const HELP = `
Transports:
  stdio (default)   One client speaks newline-delimited JSON-RPC on stdin/stdout. stdout carries
                    protocol frames only; logs go to $SWITCHBOARD_HOME/log/switchboard.log (and to
                    stderr with --verbose). When stdin closes, running turns are cancelled, threads
                    shut down within 10 s, and the process exits 0.
  --http HOST:PORT  Streamable HTTP at http://HOST:PORT/mcp with sessions (Mcp-Session-Id) and SSE
                    resumption (Last-Event-ID). The first line on stdout is "listening on <url>".
                    Port 0 picks a free port. SIGINT/SIGTERM shut it down.

Security (HTTP):
  Every request must carry "Authorization: Bearer <token>", compared in constant time. The token
  comes from --token-file FILE (first line) or $SWITCHBOARD_MCP_TOKEN, at least 16 characters.
  Without a token the server refuses to start, unless HOST is loopback and --insecure-no-auth is
  given. Against browsers (DNS rebinding, cross-site requests), with 403: on a loopback HOST the Host
  header must be a loopback name or a name given with --allowed-host; an Origin, when a browser sends
  one, must be the server's own or name localhost, 127.0.0.1, [::1], the bound address or an
  --allowed-host name. Plain HTTP: off loopback, put TLS in front of it.
  --max-sessions bounds the sessions held (memory): past it the least recently used session with no
  request in flight is closed and its next request gets HTTP 404, so its client re-initializes; only
  when every session has a request in flight is a new one refused (HTTP 503). --max-turns bounds
  the tool calls running at once: past it a call gets an error result saying so.
  With [server_auth] in config.toml it also accepts OAuth access tokens of the configured issuer;
  a thread then belongs to the caller that started it, rules over token claims decide who may use
  codex and codex-reply, and per-caller limits and an audit trail apply. See docs/server-auth.md.
  An MCP server with identity = "caller" is then reached as the caller of each codex/codex-reply
  call, with that caller's own credential (docs/upstream-identity.md).

Codex compatibility:
  Same tools as \`codex mcp-server\` (removed from Codex in 0.154.0): \`codex\` (prompt, model,
  profile, cwd, approval-policy, sandbox, config, base-instructions, developer-instructions,
  compact-prompt) and \`codex-reply\` (threadId, or the deprecated conversationId, and prompt), with
  Codex's schemas, results {threadId, content}, error texts, \`codex/event\` notifications and
  approvals as elicitation/create requests carrying the codex_* fields; unknown argument keys are
  ignored. Beyond Codex: \`codex-reply\` also resumes threads from their rollout on disk (they
  survive a restart); clients that send a progressToken get notifications/progress while a turn
  runs; -c mcp_server.codex_events=false turns codex/event off.

Codex command lines:
  Replace \`codex\` with \`switchboard\`: Codex's global options work before or after mcp-server,
  and here they take effect (Codex's server ignored most of them). -m MODEL, -p PROFILE,
  -s SANDBOX, -a POLICY, --full-auto (workspace-write, on-request), --dangerously-bypass-approvals-
  and-sandbox or --yolo (danger-full-access, never), --oss and -C DIR are the defaults of every
  session; -c key=value (also --config key=value) and --enable/--disable FEATURE are config
  overrides (switchboard has no Codex feature flags: a warning, not an error). A tool call's own
  model, sandbox, approval-policy, cwd, profile or config still wins, over HTTP within the
  caller's ceilings (docs/server-auth.md: a caller never picks the provider, and its sandbox and
  approval policy go no further than the server's own unless its [server_auth] rule says so).

${ALLOCATOR_HELP}

Examples:
  claude mcp add codex -- switchboard -m gpt-5.3-codex mcp-server
  claude mcp add switchboard -- switchboard mcp-server
  head -c 32 /dev/urandom | base64 > ~/.switchboard/mcp-token && chmod 600 ~/.switchboard/mcp-token
  switchboard mcp-server --http 127.0.0.1:8765 --token-file ~/.switchboard/mcp-token
`;

/** The agent behind every connection, and what must be closed after its threads. */
export interface AgentRuntime {
  manager: ThreadManager;
  /** Where threads (and, with PostgreSQL, leases) live. */
  store: Store;
  /** The agent's MCP servers (none yet when config.toml names none: a reload may add some). */
  mcp: McpConnectionManager;
  /** Serving callers over HTTP: their credentials and sign-in pages for the servers that act as each caller. */
  callers: ComposedIdentities | undefined;
  close(): Promise<void>;
}

/**
 * The agent every connection talks to: one ThreadManager with the built-in tools and the tools of
 * config.toml's MCP servers through the connection manager (started in the background: a failing
 * server is a warning in the log, never a reason not to serve).
 */
export async function composeAgentRuntime(ctx: CliContext, config: Config, onMcpEvent?: () => void, options: { actsAsCallers?: boolean } = {}): Promise<AgentRuntime> {
  const core = await import('../core/index.js');
  const store = await openConfiguredStore(ctx, config);
  let callers: ComposedIdentities | undefined;
  try {
    // Serving callers over HTTP: a server with identity = "caller" is reached as the caller of each turn.
    callers = options.actsAsCallers ? await (await import('./caller-identity-compose.js')).composeCallerIdentities(config, store, ctx.env, ctx.logger) : undefined;
  } catch (err) {
    await store.close();
    throw err;
  }
  const mcp = startMcpServers(ctx, config, (error) => ctx.logger.warn('MCP server failed to start', { error }), store, { onEvent: onMcpEvent, always: true, ...(callers ? { identities: callers.identities } : {}) })!;
  const manager = createAgent(core, ctx, config, mcp, store);
  return {
    manager,
    store,
    mcp,
    callers,
    close: async () => {
      await mcp.close();
      await store.close();
    },
  };
}

/** The agent server as operators see it: its MCP servers and its store (ready when every `required` server is up, judged by ops, and the store answers). */
function agentOpsSource(ops: Ops, runtime: AgentRuntime, changes: (() => void)[]): void {
  const status = () => runtime.mcp.status();
  ops.setSource({
    upstreams: status,
    ready: () => runtime.store.reachable(),
    onChange: (listener) => changes.push(listener),
  });
}

async function runMcpServer(ctx: CliContext, flags: McpServerFlags): Promise<number> {
  const cwd = await agentCwd(flags, ctx.cwd);
  const loaded = await ctx.loadConfig();
  const plainHttp = await httpServeOptions(ctx, flags, loaded.config.server_auth?.issuer !== undefined);
  const mcp: typeof AgentServerModule = await import('../agent-server/index.js');
  const logger = flags.verbose ? teeLogger(ctx.logger) : ctx.logger;
  const { startObservability } = await import('./observability.js');
  const observed = await startObservability(ctx, { title: 'switchboard mcp-server', withOps: plainHttp !== null, metricsListen: flags.metricsListen });
  const changes: (() => void)[] = [];
  const runtime = await composeAgentRuntime({ ...ctx, logger, telemetry: observed.telemetry }, loaded.config, () => changes.forEach((c) => c()), { actsAsCallers: plainHttp !== null });
  let served: ServedAuth | undefined;
  try {
    // After the runtime: limits, thread owners and the audit trail live in its store.
    served = plainHttp ? await composeServerAuth(loaded.config, plainHttp, logger, runtime.store) : undefined;
  } catch (err) {
    await runtime.close();
    await observed.close();
    throw err;
  }
  const http = served?.http;
  if (observed.ops) agentOpsSource(observed.ops, runtime, changes);
  const { DEFAULT_OSS_MODEL } = await import('../core/index.js');
  const sessionDefaults = sessionSettings(flags, 'mcp-server', DEFAULT_OSS_MODEL);
  const config = mcp.serverConfig(loaded.config, loaded.text, ctx.overrides, sessionDefaults);
  const agent = mcp.createCodexAgent({
    manager: runtime.manager,
    config,
    cwd,
    maxTurns: flags.maxTurns,
    leases: runtime.store.leases,
    logger,
    ...(served?.access ? { threadOwners: runtime.store.threadOwners } : {}),
    // Over HTTP a caller is not the operator: its arguments stay within the operator's ceilings.
    ...(http ? { ceilings: mcp.callCeilings(loaded.config.server_auth, config, cwd) } : {}),
  });
  const options = {
    name: 'switchboard-mcp-server',
    title: 'Switchboard',
    version: VERSION,
    userAgent: `switchboard/${VERSION} (${os.type()} ${os.release()}; ${os.arch()})`,
    codexEvents: loaded.config.mcp_server.codex_events,
    heartbeatMs: flags.progressInterval * 1000,
  };
  const product = mcp.codexProduct(agent, options, logger);
  const host = await import('../mcp-host/index.js');
  const serving = { logger, telemetry: observed.telemetry, ...(served?.access ? { access: served.access } : {}), ...(served?.audit ? { audit: served.audit } : {}) };
  // A reloaded config: new sessions get it (running threads keep theirs), the MCP servers change server by server.
  const live = new LiveConfig({ ...ctx, logger }, loaded, async (next, { started }) => {
    const servers = runtime.mcp.reload(next.config.mcp_servers, { drainTimeoutMs: next.config.mcp_reload_drain_timeout_ms });
    agent.config = mcp.serverConfig(next.config, next.text, ctx.overrides, sessionDefaults);
    if (http) agent.ceilings = mcp.callCeilings(next.config.server_auth, agent.config, cwd);
    options.codexEvents = next.config.mcp_server.codex_events;
    return { summary: serversSummary(servers), restartNeeded: [...restartNeeded(started, next.config), ...(served?.reload(next.config.server_auth) ?? [])] };
  }).start();
  observed.ops?.setConfig(live);
  const stop = stopSignal();
  try {
    if (!http) {
      const served = await host.serveStdio(product, { stdin: process.stdin, stdout: process.stdout, stop: stop.promise }, serving);
      // A client that stopped reading leaves writes pending on stdout, which would keep the process
      // alive forever; Codex's server also exits (non-zero) in that case.
      if (served.outputStuck) setImmediate(() => process.exit(served.exitCode));
      return served.exitCode;
    }
    const shared = sharedSessions(runtime.store, 'mcp-server');
    const { callers } = runtime;
    const listener = await host.serveHttp(
      product,
      { ...http, ...(shared ? { sharedSessions: shared } : {}), ...sharedRequestStateKey(runtime.store), ...(observed.ops ? { ops: observed.ops } : {}), ...(callers ? { routes: callers.routes } : {}) },
      serving,
    );
    callers?.listening(listener.url);
    return await serveUntilStopped(ctx, listener, stop.promise, http.token === null && !http.auth?.acceptsOAuth ? 'any local process can run the agent as you' : null);
  } finally {
    live.close();
    stop.dispose();
    await runtime.close();
    await observed.close();
  }
}

export const registerMcpServerCommand: RegisterCommand = (program: Command, context: () => CliContext, result) => {
  const cmd = program
    .command('mcp-server')
    .description('run the agent as an MCP server (tools `codex` and `codex-reply`), a drop-in replacement for `codex mcp-server`');
  addHttpServeOptions(cmd)
    .addOption(new Option('--max-turns <n>', 'tool calls running at once, across sessions (default 32)').argParser(positiveInt('--max-turns')))
    .addOption(
      new Option('--progress-interval <seconds>', 'heartbeat notifications/progress for clients that sent a progressToken')
        .argParser(positiveInt('--progress-interval'))
        .default(15),
    )
    .addOption(new Option('--verbose', 'also write log lines to stderr'))
    .addHelpText('after', HELP)
    .action(async (_flags: McpServerFlags, cmd: Command) => {
      result.exitCode = await runMcpServer(context(), cmd.optsWithGlobals() as McpServerFlags);
    });
};
