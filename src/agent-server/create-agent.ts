// The agent every call of one `switchboard mcp-server` process shares: its threads, their leases
// and owners, the turn limit, idle threads, and what HTTP callers' arguments may change. The host
// serves it as a product (codex-product.ts).
import type { ThreadManager } from '../core/index.js';
import { LocalThreadLeases, type ThreadLeases, type ThreadOwnerStore } from '../store/index.js';
import { nullLogger, type Logger } from '../util/index.js';
import type { ServerConfig } from './call-config.js';
import type { CallCeilings } from './call-ceilings.js';
import { TurnLimiter } from './call-limits.js';
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
  /** Where thread owners are kept across restarts and replicas (the store's; default: in memory only). */
  threadOwners?: ThreadOwnerStore;
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
    owners: new ThreadOwners(opts.threadOwners),
    ...(opts.ceilings ? { ceilings: opts.ceilings } : {}),
  };
}
