// Whether an upstream counts as up, for /readyz and switchboard_upstream_up alike.
import type { UpstreamRow } from './ops-types.js';

/** Ready, or stopped by stop_after_idle_sec (healthy: its next use starts it again). */
export function upstreamUp(u: UpstreamRow): boolean {
  return u.state === 'ready' || u.stopped_idle_at !== undefined;
}

/** Every `required` upstream up; one that acts as each caller has no connection of its own to be (its callers connect). */
export function requiredUpstreamsUp(rows: readonly UpstreamRow[]): boolean {
  return rows.every((u) => !u.required || u.identity === 'caller' || upstreamUp(u));
}
