// A managed server's phase, and how it reads as a startup event and as a status row (`mcp status`).
import type { McpStartupStatus } from '../protocol/index.js';
import type { ManagedServer } from './managed-server.js';
import type { StartupSummary } from './manager-types.js';
import { raceSignal } from './manager-errors.js';

/** Where one server is in its life (ManagedServer). */
export type ServerPhase =
  /** startup_mode = "lazy" and not used yet. */
  | { kind: 'idle' }
  | { kind: 'starting'; startedAt: number }
  | { kind: 'ready'; startupMs: number }
  /** `display` is the friendly text, `raw` Codex's `MCP startup failed: …`; `retryAt` null = given up. */
  | { kind: 'failed'; display: string; raw: string; error: unknown; retryAt: number | null }
  | { kind: 'cancelled' }
  | { kind: 'closed' };

/** One server's row of `switchboard mcp status`: its state, tool count, where the tools come from, and its error. */
export interface ServerStatus {
  name: string;
  state: 'idle' | 'starting' | 'ready' | 'failed' | 'cancelled' | 'closed';
  tools: number;
  source: 'live' | 'snapshot' | 'none';
  error?: string;
  startup_ms?: number;
  required: boolean;
  retry_at?: number | null;
  /** The protocol revision negotiated last (or recorded by its snapshot); null before the first. */
  protocol: string | null;
  /** Times it stopped after being ready (crashes, each followed by a restart unless given up). */
  restarts: number;
  /** `caller`: it acts as each caller (identity = "caller", while serving callers); it has no connection of its own. */
  identity?: 'caller';
  /** With identity `caller`: the callers' own connections to it held now. */
  caller_connections?: number;
  /** State `idle` because stop_after_idle_sec stopped it at this time (ms since the epoch); its next use starts it. */
  stopped_idle_at?: number;
}

export function startupStatus(phase: ServerPhase): McpStartupStatus | undefined {
  switch (phase.kind) {
    case 'starting':
      return { state: 'starting' };
    case 'ready':
      return { state: 'ready' };
    case 'failed':
      return { state: 'failed', error: phase.display };
    case 'cancelled':
      return { state: 'cancelled' };
    case 'idle':
    case 'closed':
      return undefined;
  }
}

export function statusOf(s: ManagedServer): ServerStatus {
  const phase = s.phase;
  const tools = s.tools;
  const base: ServerStatus = {
    name: s.name,
    state: phase.kind,
    tools: tools ? tools.tools.filter((t) => s.filter.allows(t.name)).length : 0,
    source: tools?.source ?? 'none',
    required: s.config.required,
    protocol: s.era?.protocol ?? null,
    restarts: s.crashes,
  };
  if (phase.kind === 'ready') base.startup_ms = phase.startupMs;
  const stoppedAt = s.stoppedIdleAt;
  if (stoppedAt !== undefined) base.stopped_idle_at = stoppedAt;
  if (phase.kind === 'failed') {
    base.error = phase.display;
    base.retry_at = phase.retryAt;
  }
  return base;
}

/** How the first startup of `servers` ended. */
export function startupSummary(servers: readonly ManagedServer[]): StartupSummary {
  const out: StartupSummary = { ready: [], failed: [], cancelled: [] };
  for (const s of servers) {
    const phase = s.phase;
    if (phase.kind === 'ready') out.ready.push(s.name);
    else if (phase.kind === 'failed') out.failed.push({ server: s.name, error: phase.raw });
    else out.cancelled.push(s.name);
  }
  return out;
}

/** Starts each required server (one at a time) and says which did not come up, in Codex's words. */
export async function requiredFailures(required: readonly ManagedServer[], signal: AbortSignal | undefined): Promise<string[]> {
  const failures: string[] = [];
  for (const server of required) {
    await raceSignal(server.ensureStarted().catch(() => {}), signal);
    const phase = server.phase;
    if (phase.kind === 'failed') failures.push(`${server.name}: ${phase.raw}`);
    else if (phase.kind !== 'ready') failures.push(`${server.name}: MCP startup cancelled`);
  }
  return failures;
}
