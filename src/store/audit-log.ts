// The audit trail as the store keeps it when one is shared (PostgreSQL): one record per served request,
// in the serving layer's AuditRecord shape (restated so the store needs no serving layer).

export interface StoredAuditRecord {
  time: string;
  subject: string | null;
  client_id: string | null;
  method: string;
  tool?: string;
  upstream?: string;
  /** Whose identity reached the upstream: `operator`, or the caller's by kind (token_exchange, identity_assertion, caller_login). */
  identity?: string;
  outcome: string;
  error_code?: number;
  duration_ms: number;
  session?: string;
}

export interface AuditLog {
  /** Queue one record; written soon after in a batch (a failure is logged, never thrown at the request). */
  append(record: StoredAuditRecord): void;
  /** The newest `limit` records, oldest first; `caller` keeps those whose subject or client id it is. */
  tail(options: { caller?: string; limit: number }): Promise<StoredAuditRecord[]>;
  /** Write what is queued. */
  flush(): Promise<void>;
}
