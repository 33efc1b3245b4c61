// `switchboard mcp-server` put together: the Codex-compatible server on stdio (one connection of
// either era, ends at stdin EOF) or on Streamable HTTP (2025 sessions and 2026-07-28 requests), with
// the shutdown rules of each.
import type { Readable, Writable } from 'node:stream';
import type { ThreadManager } from '../core/index.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { errorMessage, nullLogger, type Logger } from '../util/index.js';
import type { Telemetry } from '../util/telemetry/index.js';
import type { ServerConfig } from './call-config.js';
import { TurnLimiter } from './call-limits.js';
import { LocalThreadLeases, type ThreadLeases, type ThreadOwnerStore } from '../store/index.js';
import { CodexMcpServer, type CodexServerOptions } from './codex-server.js';
import { DEFAULT_THREAD_IDLE_MS, IdleThreads } from './idle-threads.js';
import type { CodexAgent } from './tool-call.js';
import {
  AuditedTransport,
  closingAlso,
  createModernLeg,
  errorResponseFor,
  HTTP_DEFAULTS,
  InputFlows,
  observedTransport,
  retryHolders,
  startHttpHost,
  StdioFrameTransport,
  TaskIds,
  type AccessPolicy,
  type AuditSink,
  type HttpHost,
  type HttpServeOptions,
} from '../mcp-host/index.js';
import { codexServerFactory } from './modern-codex.js';
import { ModernCodexTasks } from './modern-codex-tasks.js';
import { ThreadOwners } from './thread-owners.js';

export const DEFAULT_MAX_TURNS = 32;
/** Codex's bound on shutting threads down after stdin closes. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;
const DRAIN_TIMEOUT_MS = 5_000;

export interface CodexAgentOptions {
  manager: ThreadManager;
  config: ServerConfig;
  cwd: string;
  maxTurns?: number;
  /** Threads unused this long are shut down (and resumed from disk when needed again); 0 keeps them. */
  threadIdleMs?: number;
  /** Who may run a turn on a thread (the store's: across replicas with PostgreSQL). Default: this process only. */
  leases?: ThreadLeases;
  logger?: Logger;
  /** [server_auth] rules for HTTP callers. */
  access?: AccessPolicy;
  /** Where thread owners are kept across restarts and replicas (the store's; default: in memory only). */
  threadOwners?: ThreadOwnerStore;
  /** Where one record per served HTTP request goes. */
  audit?: AuditSink;
}

export function createCodexAgent(opts: CodexAgentOptions): CodexAgent {
  const leases = opts.leases ?? new LocalThreadLeases();
  return {
    manager: opts.manager,
    config: opts.config,
    cwd: opts.cwd,
    leases,
    turns: new TurnLimiter(opts.maxTurns ?? DEFAULT_MAX_TURNS),
    idle: new IdleThreads(opts.manager, leases, opts.threadIdleMs ?? DEFAULT_THREAD_IDLE_MS, opts.logger ?? nullLogger),
    ...(opts.access ? { access: opts.access } : {}),
    owners: new ThreadOwners(opts.threadOwners),
    ...(opts.audit ? { audit: opts.audit } : {}),
  };
}

/** Shut every thread down, waiting at most `timeoutMs`; false when the bound was hit. */
export async function shutdownThreads(manager: ThreadManager, logger: Logger, timeoutMs = SHUTDOWN_TIMEOUT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const ok = await Promise.race([manager.shutdown().then(() => true as const), timedOut]);
    if (!ok) logger.warn('threads did not shut down in time', { timeoutMs });
    return ok;
  } finally {
    clearTimeout(timer);
  }
}

export interface StdioServeOptions {
  stdin: Readable;
  stdout: Writable;
  /** Resolves when the process was asked to stop (SIGINT/SIGTERM): handled like stdin EOF. */
  stop?: Promise<unknown>;
  /** A server span per request served. */
  telemetry?: Telemetry;
}

export interface StdioServeResult {
  /** 0, or 1 when stdout failed or could not be flushed. */
  exitCode: number;
  /**
   * Frames are still waiting for a reader that never came: only exiting the process drops them
   * (process.stdout cannot be closed), so the caller owning the process must exit explicitly.
   */
  outputStuck: boolean;
}

/**
 * Serve one client on stdin/stdout until stdin ends; its first message decides the era (the SDK's
 * `serveStdio`: `initialize` gets Codex's server as before, a 2026-07-28 request the per-request
 * handlers). Then: cancel running turns and pending elicitations, shut threads down within 10 s, and
 * give stdout 5 s to flush.
 */
export async function serveCodexStdio(agent: CodexAgent, options: CodexServerOptions, io: StdioServeOptions, logger: Logger): Promise<StdioServeResult> {
  const transport = new StdioFrameTransport(io.stdin, io.stdout, logger);
  const flows = new InputFlows({ logger });
  const tasks = new ModernCodexTasks(logger, new TaskIds(undefined));
  const modern = codexServerFactory(agent, options, logger, flows, tasks);
  let codex: CodexMcpServer | undefined;
  const connection = serveStdio(
    (ctx) => {
      if (ctx.era === 'modern') return modern(ctx);
      codex = new CodexMcpServer(agent, options, logger);
      return codex.server;
    },
    { transport: CodexMcpServer.stdioGuard(io.telemetry ? observedTransport(transport, io.telemetry, { transport: 'pipe' }) : transport), onerror: (err) => logger.debug('mcp stdio connection error', { error: errorMessage(err) }) },
  );
  logger.info('mcp-server serving on stdio');
  await Promise.race([transport.ended, io.stop?.then(() => transport.close())]);
  await transport.ended;
  logger.info('stdio closed; shutting down', { reason: transport.closeReason, runningCalls: codex?.runningCalls ?? 0 });
  codex?.cancelAll();
  flows.close();
  tasks.close();
  await connection.close().catch(() => {});
  agent.idle.stop();
  await shutdownThreads(agent.manager, logger);
  const drained = await transport.drain(DRAIN_TIMEOUT_MS);
  if (!drained) logger.warn('stdout was not drained in time; exiting with unsent frames', { timeoutMs: DRAIN_TIMEOUT_MS });
  const failed = transport.closeReason === 'output_failed' || transport.closeReason === 'line_too_long' || !drained;
  return { exitCode: failed ? 1 : 0, outputStuck: !drained && transport.closeReason !== 'output_failed' };
}

/**
 * Serve Streamable HTTP: 2025 clients in sessions, 2026-07-28 clients per request, on one endpoint.
 * close() stops accepting, ends every session and waiting call, then shuts threads down.
 */
export async function serveCodexHttp(agent: CodexAgent, options: CodexServerOptions, http: HttpServeOptions, logger: Logger): Promise<HttpHost> {
  const flows = new InputFlows({ logger, ...(http.requestStateKey ? { key: http.requestStateKey } : {}) });
  const taskIds = new TaskIds(http.requestStateKey);
  const tasks = new ModernCodexTasks(logger, taskIds);
  const modern = createModernLeg(codexServerFactory(agent, options, logger, flows, tasks), {
    logger,
    maxBodyBytes: http.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
    retries: retryHolders(flows, taskIds),
  });
  const host = await startHttpHost({
    ...http,
    logger,
    modern,
    async openSession(transport) {
      const codex = new CodexMcpServer(agent, options, logger);
      const guard = await codex.connect(agent.audit ? new AuditedTransport(transport, agent.audit) : transport);
      return {
        // Only a reused id is refused before the transport: it would otherwise re-route the running
        // call's stream. Everything else the guard answers on the request's own stream.
        refusal: (message) => errorResponseFor(guard, message),
        busy: () => codex.runningCalls > 0,
        close: () => codex.close(),
      };
    },
  });
  return closingAlso(host, async () => {
    flows.close();
    tasks.close();
    agent.idle.stop();
    await shutdownThreads(agent.manager, logger);
  });
}
