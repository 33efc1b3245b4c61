// Which protocol revision a server speaks, as the manager remembers it: the negotiated version and
// the discovery verdict a warm start hands back to the client (`prior`) so the probe costs nothing;
// a start's connect and first tools/list under one budget.
import type { PriorDiscovery, Tool } from '@modelcontextprotocol/client';
import type { ListCacheHint, McpClient, ReadyInfo } from '../mcp-client/index.js';
import { isSwitchboardError } from '../util/index.js';

export interface ServerEra {
  /** The negotiated protocol version, e.g. `2026-07-28` or `2025-11-25`. */
  protocol: string | undefined;
  discovery: PriorDiscovery | undefined;
  /** When a probe (not a recorded verdict) last decided the era. */
  probedAt: string;
}

/**
 * A 2025 verdict is re-checked after this long: an upgraded server still answers `initialize`, so a
 * recorded legacy verdict would otherwise keep it on 2025 for ever. A stale 2026 verdict shows
 * itself at the first request, and is dropped then.
 */
export const LEGACY_VERDICT_MAX_AGE_MS = 7 * 24 * 3600_000;

/** The verdict to adopt instead of probing, if the recorded one is still trusted. */
export function priorFor(era: ServerEra | undefined, now = Date.now()): PriorDiscovery | undefined {
  const discovery = era?.discovery;
  if (!discovery) return undefined;
  if (discovery.kind === 'legacy' && !(now - Date.parse(era.probedAt) < LEGACY_VERDICT_MAX_AGE_MS)) return undefined;
  return discovery;
}

/**
 * Start with the recorded verdict, if still trusted; when that fails in a way a changed server
 * explains (`stale`), start once more probing afresh. Returns the verdict the success used.
 */
export async function startWithRecordedEra<T>(
  era: ServerEra | undefined,
  start: (prior: PriorDiscovery | undefined) => Promise<T>,
  stale: (err: unknown) => boolean,
  onStale: (err: unknown) => void,
): Promise<{ value: T; prior: PriorDiscovery | undefined }> {
  const prior = priorFor(era);
  try {
    return { value: await start(prior), prior };
  } catch (err) {
    if (!prior || !stale(err)) throw err;
    onStale(err);
    return { value: await start(undefined), prior: undefined };
  }
}

/** The era after a successful startup; adopting a verdict does not make it newer. */
export function eraAfterStartup(ready: ReadyInfo, usedPrior: PriorDiscovery | undefined, previous: ServerEra | undefined): ServerEra {
  const probedAt = usedPrior && previous ? previous.probedAt : new Date().toISOString();
  return { protocol: ready.protocolVersion, discovery: ready.discovery, probedAt };
}

/** Failures a wrong recorded verdict can cause (the server changed revision); a fresh probe may fix them. */
export function mayBeStaleVerdict(err: unknown): boolean {
  // By code only: the client layer (and the SDK behind it) is loaded lazily, never for this check.
  return ['protocol', 'http_status', 'decode', 'connection_closed', 'process_exited'].some((code) => isSwitchboardError(err, code));
}

/** A recorded era read back from disk; anything malformed is no era at all. */
export function parseServerEra(value: unknown): ServerEra | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.probed_at !== 'string' || Number.isNaN(Date.parse(v.probed_at))) return undefined;
  const protocol = typeof v.protocol === 'string' ? v.protocol : undefined;
  const d = v.discovery as { kind?: unknown; discover?: { supportedVersions?: unknown } } | undefined;
  const discovery =
    d?.kind === 'legacy' ? ({ kind: 'legacy' } as const) : d?.kind === 'modern' && Array.isArray(d.discover?.supportedVersions) ? (d as PriorDiscovery) : undefined;
  return { protocol, discovery, probedAt: v.probed_at };
}

/** The on-disk form (snake_case, like the rest of the snapshot). */
export function serializeServerEra(era: ServerEra): Record<string, unknown> {
  return { protocol: era.protocol, discovery: era.discovery, probed_at: era.probedAt };
}

/** A started client with its first tools list, read at `listedAt`. */
export interface FirstList {
  client: McpClient;
  ready: ReadyInfo;
  tools: Tool[];
  cache: ListCacheHint | undefined;
  listedAt: number;
}

/**
 * One client: connect and the first tools/list, together within `budget`; closed again on failure.
 * `adopt` hears the client as soon as it exists (its handlers may fire during connect), and
 * undefined when it failed.
 */
export async function connectAndList(make: () => McpClient | Promise<McpClient>, adopt: (client: McpClient | undefined) => void, budget: number, signal: AbortSignal): Promise<FirstList> {
  const startedAt = Date.now();
  let client: McpClient | undefined;
  try {
    client = await make();
    adopt(client);
    const ready = await client.connect({ signal, timeoutMs: budget });
    const remaining = budget - (Date.now() - startedAt);
    const listedAt = Date.now();
    const { tools, cache } = await client.listToolsWithCache({ signal, timeoutMs: Math.max(remaining, 1) });
    return { client, ready, tools, cache, listedAt };
  } catch (err) {
    adopt(undefined);
    await client?.close().catch(() => {});
    throw err;
  }
}
