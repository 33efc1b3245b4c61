// Per-caller limit counters shared by replicas ([server_auth.limits] with a PostgreSQL store): the
// shape the serving layer's CallerLimitStore takes, restated so the store needs no serving layer.

export interface SharedLimitCounters {
  /** Count one request of `caller` against `perMinute`: 0 when admitted, else seconds until it would be. */
  takeRequest(caller: string, perMinute: number, now: number): Promise<number>;
  /** As takeRequest, counting nothing: 0 when a request would be admitted now. */
  peekRequest(caller: string, perMinute: number, now: number): Promise<number>;
  /** One of `max` concurrent call slots of `caller`: its release, or null when all are taken. */
  acquireCall(caller: string, max: number): Promise<(() => void) | null>;
}
