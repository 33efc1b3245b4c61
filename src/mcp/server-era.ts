// Which protocol revision a server speaks, as the manager remembers it: the negotiated version and
// the discovery verdict a warm start hands back to the client (`prior`) so the probe costs nothing.
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { ReadyInfo } from '../mcp-client/index.js';
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
