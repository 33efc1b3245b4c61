// `switchboard mcp-server` put together: the agent product on the host's serving entry, on stdio (one
// connection of either era, ends at stdin EOF) or on Streamable HTTP (2025 sessions and 2026-07-28
// requests), and the agent every call of one server process shares.
import type { ThreadManager } from '../core/index.js';
import { serveHttp, serveStdio, type AccessPolicy, type AuditSink, type HttpHost, type HttpServeOptions, type StdioIO, type StdioResult } from '../mcp-host/index.js';
import { LocalThreadLeases, type ThreadLeases, type ThreadOwnerStore } from '../store/index.js';
import { nullLogger, type Logger } from '../util/index.js';
import type { Telemetry } from '../util/telemetry/index.js';
import type { ServerConfig } from './call-config.js';
import type { CallCeilings } from './call-ceilings.js';
import { TurnLimiter } from './call-limits.js';
import { codexProduct, type CodexServerOptions } from './codex-product.js';
import { DEFAULT_THREAD_IDLE_MS, IdleThreads } from './idle-threads.js';
import { ThreadOwners } from './thread-owners.js';
import type { CodexAgent } from './tool-call.js';

export const DEFAULT_MAX_TURNS = 32;

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
  /** HTTP: what each caller's `codex` arguments may change (`callCeilings`); stdio needs none. */
  ceilings?: CallCeilings;
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
    ...(opts.ceilings ? { ceilings: opts.ceilings } : {}),
  };
}

export interface StdioServeOptions extends StdioIO {
  /** A server span per request served. */
  telemetry?: Telemetry;
}

/**
 * Serve one client on stdin/stdout until stdin ends; its first message decides the era. Then: running
 * turns and pending elicitations are cancelled, threads shut down within 10 s, and stdout gets 5 s to flush.
 */
export function serveCodexStdio(agent: CodexAgent, options: CodexServerOptions, io: StdioServeOptions, logger: Logger): Promise<StdioResult> {
  return serveStdio(codexProduct(agent, options, logger), io, { logger, ...(io.telemetry ? { telemetry: io.telemetry } : {}) });
}

/**
 * Serve Streamable HTTP: 2025 clients in sessions, 2026-07-28 clients per request, on one endpoint.
 * close() stops accepting, ends every session and waiting call, then shuts threads down.
 */
export function serveCodexHttp(agent: CodexAgent, options: CodexServerOptions, http: HttpServeOptions, logger: Logger): Promise<HttpHost> {
  return serveHttp(codexProduct(agent, options, logger), http, { logger, ...(agent.access ? { access: agent.access } : {}), ...(agent.audit ? { audit: agent.audit } : {}) });
}
